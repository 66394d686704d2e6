# shellcheck shell=bash
# Helpers shared by make-worktree.sh and export-series.sh. Source it.

# git in the work tree, with a committer identity even on a fresh machine
sgit() {
	GIT_COMMITTER_NAME=${GIT_COMMITTER_NAME:-$(git config user.name || echo cgscale)} \
	GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL:-$(git config user.email || echo cgscale@localhost)} \
		git -C "$SRC" "$@"
}

# The patch files of the series, in order, without the cover letter.
series_patches() { # DIR
	find "$1" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' | sort
}

# Print the cover letter of DIR/0000-cover-letter.patch as a branch
# description: the subject line, a blank line, then the body up to the
# shortlog.
cover_description() { # DIR
	local f=$1/0000-cover-letter.patch
	[ -f "$f" ] || return 0
	awk '
		/^Subject: / && !subj { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
		insubj && /^[ \t]/ { sub(/^[ \t]+/, ""); subj = subj " " $0; next }
		{ insubj = 0 }
		subj && !inbody && /^$/ { inbody = 1; print subj; print ""; next }
		inbody { body[++n] = $0 }
		END {
			# the body ends before the shortlog header "Name (N):"
			for (end = n; end > 0; end--)
				if (body[end] ~ /^[^ ].* \([0-9]+\):$/) break
			if (end == 0) end = n + 1
			while (end > 1 && body[end - 1] == "") end--
			for (i = 1; i < end; i++) print body[i]
		}' "$f"
}

# Export base..series of the work tree into DIR as format-patch files with a
# cover letter. The output depends only on the commits' contents, authors,
# author dates and messages, so that export right after import reproduces the
# patch files byte for byte: --zero-commit hides the committer-dependent
# hashes, and --abbrev=12 keeps index lines independent of how many objects
# the repository holds.
export_series() { # DIR
	local out=$1 n
	n=$(sgit rev-list --count base..series)
	mkdir -p "$out"
	out=$(cd "$out" && pwd)
	[ "$n" -gt 0 ] || return 0
	sgit format-patch --quiet --cover-letter --cover-from-description=subject \
		--base=base --zero-commit --no-signature --no-numbered-files --abbrev=12 \
		--subject-prefix=PATCH -o "$out" base..series
	# The cover letter gets the current time from format-patch; give it the
	# author date of the last patch instead.
	local last date
	last=$(series_patches "$out" | tail -n 1)
	date=$(sed -n 's/^Date: //p' "$last" | head -n 1)
	sed -i "0,/^Date: .*/s//Date: $date/" "$out/0000-cover-letter.patch"
}
