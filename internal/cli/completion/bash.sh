# bash completion for git-bernstein, from `git-bernstein completion bash`.
# Enable it in ~/.bashrc (after git's own completion, if you load that by hand):
#   eval "$(git-bernstein completion bash)"
# It completes `git-bernstein <TAB>` and, through git's completion (which calls _git_bernstein), `git bernstein
# <TAB>`: commands, flags, and ticket ids from the ticket index. Anything else completes as file names.

# __git_bernstein_reply WORD...: the words after the command name, the last being completed.
__git_bernstein_reply() {
	local IFS=$'\n' cur="${!#}"
	COMPREPLY=($(command git-bernstein __complete -- "$@" 2>/dev/null))
	if [ ${#COMPREPLY[@]} -eq 0 ]; then
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
	fi
}

# git-bernstein <TAB>
_git_bernstein_standalone() {
	__git_bernstein_reply "${COMP_WORDS[@]:1:COMP_CWORD}"
}
complete -F _git_bernstein_standalone git-bernstein

# git bernstein <TAB>: git's completion calls _git_<command> with words, cword and __git_cmd_idx set.
_git_bernstein() {
	local i=${__git_cmd_idx:-1}
	if [ "${words[i]}" != bernstein ]; then
		for ((i = 1; i < cword; i++)); do
			[ "${words[i]}" = bernstein ] && break
		done
	fi
	__git_bernstein_reply "${words[@]:i+1:cword-i}"
}
