# Homebrew formula for tcptune's control tool, built from the release
# tarball that `make dist` makes.  packaging/homebrew/release.sh TARBALL
# URL writes the tarball's version, URL and SHA-256 in here for a
# release; until then the URL is a placeholder (example.org, RFC 2606).
#
# Only tcptunectl is installed (status, check, advise, and reload,
# restore, resume with sudo).  tcptuned, the root daemon, comes from the
# tcptune .pkg, which puts it in /Library/tcptune/sbin owned by root: a
# daemon that runs as root must not live under a Homebrew prefix, which
# belongs to the user who installed Homebrew, since anything running as
# that user could then replace what root runs.
class Tcptune < Formula
  desc "Control tool for tcptuned, which keeps TCP-tuning sysctls in force"
  homepage "https://example.org/tcptune"
  url "https://example.org/tcptune/tcptune-0.1.0.tar.gz"
  version "0.1.0"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "ISC"

  depends_on "pkgconf" => :build
  uses_from_macos "libxml2"

  def install
    # The paths the .pkg's daemon uses (packaging/macos/build-pkg.sh), so
    # that tcptunectl finds its socket and configuration.
    system "./configure", *std_configure_args,
           "--sysconfdir=/etc", "--localstatedir=/var",
           "--with-statedir=/var/db/tcptune"
    system "make", "tcptunectl"
    bin.install "tcptunectl"
    man8.install "man/tcptunectl.8"
    man5.install "man/tcptune.conf.5"
    pkgshare.install "etc/org.tcptune.tcptuned.mobileconfig"
  end

  def caveats
    <<~EOS
      This installs tcptunectl only.  tcptuned runs as root, so install it
      from the tcptune .pkg (it goes to /Library/tcptune/sbin, owned by
      root), not from Homebrew: #{HOMEBREW_PREFIX} is writable by your
      user, and a root daemon there could be replaced by anything that
      runs as you.  tcptunectl talks to the .pkg's daemon as it is.
    EOS
  end

  test do
    assert_match version.to_s, shell_output("#{bin}/tcptunectl --version")
    (testpath/"tcptune.conf").write <<~EOS
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
        <key>Sysctls</key>
        <dict>
          <key>net.inet.tcp.autorcvbufmax</key>
          <integer>16777216</integer>
        </dict>
      </dict>
      </plist>
    EOS
    assert_match "configuration OK",
                 shell_output("#{bin}/tcptunectl check #{testpath}/tcptune.conf")
  end
end
