# man-tables.awk - make go-md2man's tables fit a terminal: every cell becomes
# a tbl text block (T{ ... T}), which wraps, and the last column of each row
# format takes the width left (x), so a long description folds inside its
# cell instead of running off the page. A text line that starts with a dot
# ("...") is protected from being read as a request. The rest passes.
function cells(line,    n, f, i, out) {
	n = split(line, f, "\t")
	out = ""
	for (i = 1; i <= n; i++) {
		if (i > 1)
			out = out "\t"
		if (f[i] == "T{") {
			inblock = 1
			out = out "T{"
		} else {
			out = out "T{\n" f[i] "\nT}"
		}
	}
	return out
}
/^\.\.\./ { $0 = "\\&" $0 }
/^\.TS/ { intable = 1; informat = 1; print; next }
/^\.TE/ { intable = 0; print; next }
intable && informat {
	if ($0 ~ /;$/) { print; next }
	line = $0
	last = (line ~ /\.$/)
	sub(/ *\.?$/, "", line)
	sub(/l$/, "lx", line)
	print line (last ? " ." : "")
	if (last)
		informat = 0
	next
}
intable && inblock {
	if ($0 ~ /^T}/) {
		inblock = 0
		rest = substr($0, 3)
		if (rest ~ /^\t/)
			print "T}\t" cells(substr(rest, 2))
		else
			print $0
	} else {
		print
	}
	next
}
intable { print cells($0); next }
{ print }
