# A stand-in for the little of Homebrew's Formula DSL that
# packaging/homebrew/tcptune.rb uses: loads the formula, runs its install
# with every system command and install recorded instead of run, and
# prints what it saw as JSON for tests/packaging/homebrew.sh.
#   ruby brew_stub.rb FORMULA CLASS
require "json"
require "pathname"

HOMEBREW_PREFIX = Pathname.new("/opt/homebrew")
LOG = { "system" => [], "install" => [], "deps" => [] }

class Formula
  class << self
    def fields
      @fields ||= {}
    end

    %w[desc homepage url version sha256 license].each do |m|
      define_method(m) { |v| fields[m] = v }
    end

    def depends_on(dep)
      LOG["deps"] << dep.inspect
    end

    def uses_from_macos(dep)
      LOG["deps"] << "macos:#{dep}"
    end

    def test(&block)
      fields["test"] = !block.nil?
    end
  end

  # bin, man8, ...: a directory whose install calls are recorded.
  class Dest
    def initialize(name)
      @name = name
    end

    def install(*files)
      LOG["install"] << [@name, *files.flatten.map(&:to_s)]
    end
  end

  %w[bin sbin lib libexec include etc share pkgshare prefix man1 man5 man8].each do |d|
    define_method(d) { Dest.new(d) }
  end

  def std_configure_args
    ["--disable-debug", "--disable-dependency-tracking",
     "--prefix=/opt/homebrew/Cellar/tcptune/0", "--libdir=/opt/homebrew/Cellar/tcptune/0/lib"]
  end

  def system(*args)
    LOG["system"] << args.map(&:to_s)
  end

  def version
    self.class.fields["version"]
  end
end

load ARGV[0]
formula = Object.const_get(ARGV[1]).new
formula.install
puts JSON.generate(
  "fields" => formula.class.fields,
  "system" => LOG["system"],
  "install" => LOG["install"],
  "deps" => LOG["deps"],
  "caveats" => formula.respond_to?(:caveats) ? formula.caveats : nil
)
