#compdef git-bernstein
# zsh completion for git-bernstein, from `git-bernstein completion zsh`.
# Enable it in ~/.zshrc, after compinit:
#   source <(git-bernstein completion zsh)
# It completes `git-bernstein <TAB>` and `git bernstein <TAB>` (zsh's git completion calls _git-bernstein for
# the external command): commands, flags, and ticket ids from the ticket index. Anything else completes as files.

_git-bernstein() {
	local -a cands
	# words[1] is git-bernstein, or bernstein under `git bernstein`: the rest, up to the cursor, is asked about.
	cands=("${(@f)$(command git-bernstein __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	cands=(${cands:#})
	if (( ${#cands} )); then
		compadd -Q -- "${cands[@]}"
	else
		_files
	fi
}

compdef _git-bernstein git-bernstein
