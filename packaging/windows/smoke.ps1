# smoke.ps1: tcptune on a real Windows, after installing the .msi.
# Run from an elevated PowerShell (Windows PowerShell 5.1 or later):
#   powershell -ExecutionPolicy Bypass -File smoke.ps1 [-SkipRss]
# It checks the service, sets each key through tcptune (a test config and
# a reload), reads it back with Get-NetTCPSetting / Get-NetOffloadGlobalSetting
# and netsh, puts the config back, tries the pipe as a standard user, and
# prints one report to paste into an issue (also saved in %TEMP%).
# RSS is turned off for a few seconds unless -SkipRss is given.
# Nothing here has run in tcptune's own tests: Wine has none of these
# classes, services or accounts (docs/DESIGN.md, section 5).
param([switch]$SkipRss)
$ErrorActionPreference = 'Stop'
$ctl  = Join-Path $env:ProgramFiles 'tcptune\tcptunectl.exe'
$conf = Join-Path $env:ProgramData 'tcptune\tcptune.conf'
$report = New-Object System.Collections.Generic.List[string]
function Say($line) { $report.Add($line); Write-Host $line }
function Check($ok, $what) { Say ("{0} - {1}" -f ($(if ($ok) { 'ok' } else { 'FAIL' })), $what) }
# tcptunectl's stderr merged as text: under 'Stop', Windows PowerShell 5.1
# throws at the first stderr line of a native program (7.1 does not).
function Ctl {
    $ErrorActionPreference = 'Continue'
    & $ctl @args 2>&1 | ForEach-Object { "$_" } | Out-String
}

# A config holding one value of each writable key, through a reload.
# Not the read-only keys (tcp.scalingheuristics, qos.tcpautotuninglevel,
# ...): the backend refuses to write them (lib/catalogue.c, win_keys).
function Apply($level, $rss) {
    $keys = "<key>tcp.autotuninglevel</key><string>$level</string>"
    if ($rss) { $keys += "<key>offload.rss</key><string>$rss</string>" }
    Set-Content -Path $conf -Encoding UTF8 -Value ("<plist version=`"1.0`"><dict>" +
        "<key>CheckInterval</key><integer>10</integer><key>Sysctls</key><dict>$keys</dict></dict></plist>")
    Ctl reload | Out-Null
    Start-Sleep -Seconds 3
}

# The level as netsh shows it (an English Windows: the label is translated).
function NetshLevel {
    $line = netsh interface tcp show global | Select-String -Pattern 'Auto-Tuning'
    ($line -split ':')[-1].Trim()
}

$id = [Security.Principal.WindowsIdentity]::GetCurrent()
if (-not ([Security.Principal.WindowsPrincipal]$id).IsInRole('Administrators')) {
    Write-Error 'run smoke.ps1 from an elevated PowerShell'
}
$os = Get-CimInstance Win32_OperatingSystem
Say "tcptune smoke test, $(Get-Date -Format s)"
Say "Windows: $($os.Caption) $($os.Version) build $($os.BuildNumber)"
Say "tcptunectl: $((Ctl version).Trim())"

# ---- the service and the pipe
$svc = Get-Service tcptuned -ErrorAction SilentlyContinue
Check ($svc -and $svc.Status -eq 'Running') "service tcptuned running ($($svc.Status), $($svc.StartType))"
$status = Ctl status
Check ($LASTEXITCODE -le 1) "tcptunectl status answers (exit $LASTEXITCODE)"
try { $owner = (Get-Acl '\\.\pipe\tcptune').Owner } catch { $owner = "unreadable: $_" }
Check ($owner -eq 'NT AUTHORITY\SYSTEM') "pipe owner: $owner"

# ---- a round trip of each key
$orig = Get-Content -Raw $conf
$level0 = (Get-NetTCPSetting -SettingName Internet).AutoTuningLevelLocal
$rss0 = (Get-NetOffloadGlobalSetting).ReceiveSideScaling
Say "before: Internet AutoTuningLevelLocal $level0, netsh '$(NetshLevel)', RSS $rss0"
Say (Get-NetTCPSetting | Format-Table SettingName, AutoTuningLevelLocal,
    AutoTuningLevelGroupPolicy, AutoTuningLevelEffective, ScalingHeuristics -AutoSize | Out-String).Trim()
$qos = (Get-ItemProperty 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\QoS' -ErrorAction SilentlyContinue).'Tcp Autotuning Level'
Say "QoS 'Tcp Autotuning Level': $(if ($qos) { $qos } else { 'not configured' })"
$test = if ("$level0" -eq 'Restricted') { 'normal' } else { 'restricted' }
$rssTest = if ($SkipRss) { $null } elseif ("$rss0" -eq 'Enabled') { 'disabled' } else { 'enabled' }
try {
    Apply $test $rssTest
    # not a truth test: Disabled is 0
    $got = Get-NetTCPSetting | Where-Object { $null -ne $_.AutoTuningLevelLocal } |
        ForEach-Object { "$($_.SettingName)=$($_.AutoTuningLevelLocal)" }
    Check ((NetshLevel) -eq $test) "tcp.autotuninglevel ${test}: netsh says '$(NetshLevel)'; $($got -join ', ')"
    if ($rssTest) {
        $now = "$((Get-NetOffloadGlobalSetting).ReceiveSideScaling)"
        Check ($now -eq $rssTest) "offload.rss ${rssTest}: Get-NetOffloadGlobalSetting says $now"
    }
    Say (Ctl status).Trim()
} finally {
    Set-Content -Path $conf -Value $orig -NoNewline -Encoding UTF8
    Ctl reload | Out-Null
    Start-Sleep -Seconds 3
}
Say "after: Internet AutoTuningLevelLocal $((Get-NetTCPSetting -SettingName Internet).AutoTuningLevelLocal), RSS $((Get-NetOffloadGlobalSetting).ReceiveSideScaling)"

# ---- the pipe as a standard user: runas's Basic User token drops
# Administrators (the same account, no password asked)
$out = Join-Path $env:TEMP 'tcptune-smoke-user.txt'
Remove-Item $out -ErrorAction SilentlyContinue
# 5.1 hands an argument's quotes to runas as they are: they must be \",
# which runas's command-line parsing turns into quotes for cmd.
$cmdline = 'cmd /c \"\"{0}\" status > \"{1}\" 2>&1 & \"{0}\" reload >> \"{1}\" 2>&1\"' -f $ctl, $out
runas /trustlevel:0x20000 $cmdline
Start-Sleep -Seconds 5
$user = if (Test-Path $out) { Get-Content -Raw $out } else { '(no output)' }
Check ($user -match 'tcp.autotuninglevel' -and $user -match "needs root") "standard user: status answers, reload refused"
Say $user.Trim()

$file = Join-Path $env:TEMP 'tcptune-smoke-report.txt'
$report | Set-Content -Path $file -Encoding UTF8
Write-Host "`n---- paste from here (also in $file) ----"
$report | ForEach-Object { Write-Host $_ }
