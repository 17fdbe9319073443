# fish completion for git-bernstein, from `git-bernstein completion fish`.
# Enable it:
#   git-bernstein completion fish > ~/.config/fish/completions/git-bernstein.fish
# It completes `git-bernstein <TAB>` and `git bernstein <TAB>`: commands, flags, and ticket ids from the ticket
# index. Anything else completes as file names.

function __git_bernstein_complete
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    # Drop the command: `git-bernstein` or `git [options] bernstein`.
    while set -q tokens[1]; and test "$tokens[1]" != git-bernstein; and test "$tokens[1]" != bernstein
        set -e tokens[1]
    end
    set -e tokens[1]
    set -l cands (command git-bernstein __complete -- $tokens "$cur" 2>/dev/null)
    if test (count $cands) -gt 0
        printf '%s\n' $cands
    else
        __fish_complete_path "$cur"
    end
end

complete -c git-bernstein -f -a '(__git_bernstein_complete)'
complete -c git -n '__fish_seen_subcommand_from bernstein' -f -a '(__git_bernstein_complete)'
