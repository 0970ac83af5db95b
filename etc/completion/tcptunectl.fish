# fish completion for tcptunectl: commands, each command's options,
# --platform's OSes, the config keys of this OS (or of --platform OS) for
# set, unset and advise --set, and help's commands and manual pages.
# Every word comes from the program itself (tcptunectl --complete, read
# from the tables its parser and help use), so that it cannot offer what
# the program does not take.  Installed as
# $(datadir)/fish/vendor_completions.d/tcptunectl.fish.

# __tcptunectl_arg PROG ARG OS CUR: an option's argument, by its placeholder.
function __tcptunectl_arg
    switch $argv[2]
        case OS
            $argv[1] --complete oses 2>/dev/null
        case DIR
            __fish_complete_directories $argv[4]
        case PATH FILE MANAGED '[FILE]'
            __fish_complete_path $argv[4]
        case NAME=VALUE
            __tcptunectl_keys $argv[1] $argv[3] =
    end
end

# __tcptunectl_keys PROG OS [SUFFIX]: the keys of OS (this one when "").
function __tcptunectl_keys
    set -l os
    test -n "$argv[2]"; and set os $argv[2]
    for line in ($argv[1] --complete keys $os 2>/dev/null)
        set -l f (string split \t -- $line)
        printf '%s%s\t%s\n' $f[1] "$argv[3]" $f[2]
    end
end

function __tcptunectl_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l prog $words[1]
    set -l cmd
    set -l os
    set -l names
    set -l args
    for line in ($prog --complete options 2>/dev/null)
        set -l f (string split \t -- $line)
        set -a names $f[1]
        set -a args "$f[3]"
        if test -n "$f[2]"
            set -a names $f[2]
            set -a args "$f[3]"
        end
    end
    # the command, and --platform's OS, on the line so far
    set -l i 2
    while test $i -le (count $words)
        set -l w $words[$i]
        if string match -q -- '--platform=*' $w
            set os (string replace -- '--platform=' '' $w)
        else if string match -q -- '-*' $w
            set -l n (contains -i -- $w $names)
            if test -n "$n"; and test -n "$args[$n]"; and not string match -q -- '[*' $args[$n]
                set i (math $i + 1)
                test "$w" = --platform; and set os $words[$i]
            end
        else if test -z "$cmd"
            set cmd $w
        end
        set i (math $i + 1)
    end
    set -l prev $words[-1]
    set -l n (contains -i -- $prev $names)
    if string match -q -- '--*=*' $cur
        set -l opt (string split -m1 = -- $cur)
        set -l k (contains -i -- $opt[1] $names)
        test -n "$k"; or return
        for w in (__tcptunectl_arg $prog $args[$k] "$os" $opt[2])
            echo $opt[1]=$w
        end
    else if test (count $words) -gt 1; and test -n "$n"; and test -n "$args[$n]"
        __tcptunectl_arg $prog $args[$n] "$os" $cur
    else if string match -q -- '-*' $cur
        $prog --complete options $cmd 2>/dev/null | string replace -r '^(\S+)\t[^\t]*\t[^\t]*\t' '$1\t'
    else if test -z "$cmd"
        $prog --complete commands 2>/dev/null
    else if string match -q -- '*=*' $cur
        # the VALUE of KEY=VALUE: nothing to offer
    else
        switch $cmd
            case help
                $prog --complete commands 2>/dev/null
                $prog --complete pages 2>/dev/null
            case set
                __tcptunectl_keys $prog "$os" =
            case unset
                __tcptunectl_keys $prog "$os"
            case check import
                __fish_complete_path $cur
        end
    end
end

complete -c tcptunectl -f -a '(__tcptunectl_complete)'
