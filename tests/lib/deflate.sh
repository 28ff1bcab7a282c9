# Sourced by the tests of Deflate (samples/Deflate.java): its time in zlib,
# native code entered from Java and, on the system's libz, built without
# frame pointers.

# deflate_whole FOLDED SHARE COUNT: of the deflate-worker's zlib samples in
# FOLDED (--per-thread; COUNT of them at least), the share that keeps
# Deflater's native method and reaches the thread's root is at least SHARE
# (0..1). Exits 1 when the share is short, 2 when the samples are.
deflate_whole() {
	awk -v f="$1" -v min="$2" -v count="$3" '
	/;deflate-worker \[/ {
		n = $NF
		line = $0; sub(/ [0-9]+$/, "", line)
		if (line !~ /\[libz\.so|;(deflate|deflate_slow|deflate_fast|deflate_stored|longest_match|fill_window|adler32|adler32_z|crc32|crc32_z|compress_block|slide_hash|build_tree|pqdownheap|send_tree|_tr_[a-z_]+)(;|$)/)
			next
		z += n
		split(line, fr, ";")
		if (fr[3] ~ /^(start_thread|(__)?clone3?|thread_native_entry)$/ &&
		    line ~ /java\/util\/zip\/Deflater\.deflateBytes[A-Za-z]*_\[[01j]\];/)
			whole += n
	}
	END {
		if (z < count) { print f ": only " z " zlib samples"; exit 2 }
		printf "%s: %.2f%% of %d zlib samples keep Deflater and the root\n", f, 100*whole/z, z
		exit !(whole >= min * z)
	}' "$1"
}
