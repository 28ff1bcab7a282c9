#!/usr/bin/env bash
# make test-kernels: boot Debian's own kernels under qemu and run
# guest.sh inside each (our BPF programs through that kernel's verifier, a
# C program and JVMs profiled), then print PASS or FAIL per kernel; exit 1
# when any failed.
#
# In: $BUILD (mixprof, libjmap.so, the samples and fixtures, already
# built), Debian's mirror through apt, KERNELS (the suites whose
# linux-image-amd64 to boot; default: bookworm, whose candidate is the
# newest 6.1 with its security updates, and bookworm-backports).
# Out, all under $BUILD/kernels (kept: a second run only boots):
#   apt/      a private apt config and lists (the host's is not touched)
#   debs/     the kernel packages
#   root/     the guest's root, made by debootstrap, with each kernel's
#             modules and an initramfs of its own
#   root.img  that root as an ext4 image (the guest writes to a snapshot)
#   VER/      per kernel: console.log (all the guest printed), out/ (the
#             profiles and status guest.sh wrote)
# QEMU_ACCEL=tcg skips KVM; without a working /dev/kvm it is used anyway.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$(cd "${BUILD:-$TOP/build}" && pwd) || exit 1
WORK=$BUILD/kernels
KERNELS=${KERNELS:-bookworm bookworm-backports}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# what mixprof links (ldd build/mixprof), a JRE, and the initramfs maker
ROOT_PKGS=libbpf1,libelf1,libdw1,zlib1g,libstdc++6,openjdk-17-jre-headless,initramfs-tools,kmod,procps
QEMU_PID=

say() { echo "test-kernels: $*"; }
die() { say "$*" >&2; exit 1; }

# Every exit path: the guest stopped, nothing left mounted under $WORK
# (debootstrap mounts /proc and /sys in the root it makes).
cleanup() {
	[ -n "$QEMU_PID" ] && kill "$QEMU_PID" 2>/dev/null
	awk -v w="$WORK/" 'index($2, w) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r m; do umount -l "$m"; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, BPF in the guest)"
[ -x "$BUILD/mixprof" ] || die "$BUILD/mixprof not built (make)"
"$TOP/scripts/deps.sh" kernels || exit 1
mkdir -p "$WORK/apt/lists/partial" "$WORK/apt/cache/archives/partial" \
	"$WORK/debs"

# A private apt: Debian's suites, backports included, whatever the host's
# sources say; its lists refreshed once a day.
APT_OPTS=(-o "Dir::Etc::SourceList=$WORK/apt/sources.list"
	-o Dir::Etc::SourceParts=/nonexistent
	-o "Dir::State::Lists=$WORK/apt/lists"
	-o "Dir::Cache=$WORK/apt/cache" -o Dir::State::status=/dev/null
	-o APT::Sandbox::User=root)
apt_lists() {
	local s=${MIRROR%/debian}/debian-security
	{
		echo "deb [signed-by=$KEYRING] $MIRROR bookworm main"
		echo "deb [signed-by=$KEYRING] $s bookworm-security main"
		echo "deb [signed-by=$KEYRING] $MIRROR bookworm-backports main"
	} >"$WORK/apt/sources.list"
	[ -n "$(find "$WORK/apt/lists" -maxdepth 1 -name '*Packages*' -mmin -1440)" ] &&
		return 0
	apt-get "${APT_OPTS[@]}" -qq update ||
		say "apt-get update failed; using the lists and packages cached"
}

# The kernel package a suite's linux-image-amd64 pulls in.
kernel_pkg() { # SUITE
	local rel=()

	[ "$1" = bookworm ] || rel=(-o "APT::Default-Release=$1")
	apt-cache "${APT_OPTS[@]}" "${rel[@]}" depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }'
}

# Unpacks PKG's kernel and modules into the root (not with dpkg-deb -x:
# it would replace the root's /lib symlink with a directory) and makes
# its initramfs there.
add_kernel() { # PKG VER
	local deb x

	deb=$(ls "$WORK/debs/$1"_*.deb 2>/dev/null | tail -1)
	if [ -z "$deb" ]; then
		(cd "$WORK/debs" && apt-get "${APT_OPTS[@]}" -qq download "$1") ||
			return 1
		deb=$(ls "$WORK/debs/$1"_*.deb | tail -1)
	fi
	[ -f "$WORK/root/boot/initrd.img-$2" ] && return 0
	say "adding kernel $2 to the root"
	x=$WORK/x.$2
	rm -rf "$x" && mkdir -p "$x" || return 1
	dpkg-deb -x "$deb" "$x" || return 1
	mkdir -p "$WORK/root/usr/lib/modules" &&
		rm -rf "$WORK/root/usr/lib/modules/$2" &&
		mv "$x/lib/modules/$2" "$WORK/root/usr/lib/modules/" &&
		cp "$x/boot/vmlinuz-$2" "$x/boot/config-$2" "$WORK/root/boot/" ||
		return 1
	rm -rf "$x"
	chroot "$WORK/root" /usr/bin/env PATH=/usr/sbin:/usr/bin \
		sh -c "depmod $2 && mkinitramfs -o /boot/initrd.img-$2 $2"
}

# The root: debootstrap's minimal Debian 12 with ROOT_PKGS, an initramfs
# that mounts an ext4 root on virtio (no other module: faster to boot) and
# PID 1 mixprof-init.
make_root() {
	local r=$WORK/root

	[ "$(cat "$r/.mixprof-pkgs" 2>/dev/null)" = "$ROOT_PKGS" ] && return 0
	say "debootstrap bookworm into $r (minutes)"
	rm -rf "$r" "$r.tmp"
	debootstrap --variant=minbase --include="$ROOT_PKGS" bookworm \
		"$r.tmp" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
		die "debootstrap failed: see $WORK/debootstrap.log"
	sed -i 's/^MODULES=.*/MODULES=list/' "$r.tmp/etc/initramfs-tools/initramfs.conf"
	printf '%s\n' virtio_pci virtio_blk ext4 \
		>>"$r.tmp/etc/initramfs-tools/modules"
	mv "$r.tmp" "$r" && echo "$ROOT_PKGS" >"$r/.mixprof-pkgs"
}

# PID 1 of the guest: the mounts a host has (no tracefs, no debugfs: we
# must not need them), the repo and the build read-only over 9p, guest.sh
# with its output on the console and in out/, then power off.
install_init() {
	cat >"$WORK/root/sbin/mixprof-init" <<'EOF'
#!/bin/sh
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
mount -t proc proc /proc 2>/dev/null # the initramfs moved its own
mount -t sysfs sys /sys 2>/dev/null
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm /mnt/repo /mnt/build /mnt/out
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp
mount -t bpf bpf /sys/fs/bpf
mount -t cgroup2 cgroup2 /sys/fs/cgroup
modprobe 9pnet_virtio && modprobe 9p
o=trans=virtio,version=9p2000.L,msize=512000
mount -t 9p -o $o,ro repo /mnt/repo &&
	mount -t 9p -o $o,ro build /mnt/build &&
	mount -t 9p -o $o out /mnt/out
bash /mnt/repo/tests/kernels/guest.sh /mnt/build /mnt/out 2>&1 |
	tee /mnt/out/guest.log
sync
echo o >/proc/sysrq-trigger
sleep 10
EOF
	chmod 755 "$WORK/root/sbin/mixprof-init"
}

# root.img from root/ (mkfs.ext4 -d: no loop device, no mount), remade
# when the root changed.
make_image() {
	local stamp

	stamp=$(cd "$WORK/root" && ls boot; md5sum sbin/mixprof-init .mixprof-pkgs)
	[ -f "$WORK/root.img" ] && [ "$(cat "$WORK/root.img.stamp" 2>/dev/null)" = "$stamp" ] &&
		return 0
	say "making root.img"
	rm -f "$WORK/root.img"
	mkfs.ext4 -q -L mixroot -d "$WORK/root" "$WORK/root.img" \
		$(($(du -sm "$WORK/root" | cut -f1) * 13 / 10 + 512))M ||
		die "mkfs.ext4 failed"
	echo "$stamp" >"$WORK/root.img.stamp"
}

# Boots VER with ACCEL; 0 when the guest ran guest.sh to its end.
boot() { # VER ACCEL
	local d=$WORK/$1 cpu=max

	[ "$2" = kvm ] && cpu=host
	rm -rf "$d/out" && mkdir -p "$d/out"
	qemu-system-x86_64 -accel "$2" -cpu "$cpu" -m 3072 -smp 2 \
		-nographic -no-reboot -nic none \
		-kernel "$WORK/root/boot/vmlinuz-$1" \
		-initrd "$WORK/root/boot/initrd.img-$1" \
		-append "console=ttyS0 root=/dev/vda rw init=/sbin/mixprof-init panic=-1" \
		-drive "file=$WORK/root.img,format=raw,if=virtio,snapshot=on" \
		-virtfs "local,path=$TOP,mount_tag=repo,security_model=none,readonly=on" \
		-virtfs "local,path=$BUILD,mount_tag=build,security_model=none,readonly=on" \
		-virtfs "local,path=$d/out,mount_tag=out,security_model=none" \
		</dev/null >"$d/console.log" 2>&1 &
	QEMU_PID=$!
	disown # its end polled, not waited for: no "Aborted" from bash
}

stop_qemu() {
	local i

	kill "$QEMU_PID" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$QEMU_PID" 2>/dev/null || break
		sleep 0.2
	done
	QEMU_PID=
}

# KVM when it works: a kernel that prints nothing in 60 s under it (a
# nested host whose KVM starts the firmware but not the kernel) or a
# qemu that exits at once means software emulation (TCG) instead.
kvm_works() { # VER
	local i

	[ "${QEMU_ACCEL:-}" != tcg ] && [ -w /dev/kvm ] || return 1
	boot "$1" kvm
	for i in $(seq 60); do
		grep -aq 'Linux version' "$WORK/$1/console.log" && return 0
		kill -0 "$QEMU_PID" 2>/dev/null || break
		sleep 1
	done
	stop_qemu
	return 1
}

# guest.sh's verdict, the guest bounded by 30 minutes.
run_kernel() { # VER
	local d=$WORK/$1 start=$SECONDS i

	if [ -z "${ACCEL:-}" ]; then
		if kvm_works "$1"; then
			ACCEL=kvm
		else
			ACCEL=tcg
			say "KVM not usable here: software emulation (TCG), slow"
		fi
	fi
	[ -n "$QEMU_PID" ] || boot "$1" "$ACCEL"
	for i in $(seq 1800); do
		kill -0 "$QEMU_PID" 2>/dev/null || break
		sleep 1
	done
	stop_qemu
	TIME[$1]=$((SECONDS - start))
	[ "$(cat "$d/out/status" 2>/dev/null)" = 0 ]
}

# The verifier's last words for each program it refused, per check
# (guest.sh keeps libbpf's log of a failed load as CHECK.verifier.log).
refusals() { # OUT
	local f

	for f in "$1"/*.verifier.log; do
		[ -f "$f" ] || continue
		awk -v c="$(basename "$f" .verifier.log)" '
		/BPF program load failed/ {
			match($0, /prog \047[^\047]*\047/)
			prog = substr($0, RSTART + 6, RLENGTH - 7)
		}
		/BEGIN PROG LOAD LOG/ { inlog = 1; last = ""; next }
		/END PROG LOAD LOG/ {
			inlog = 0
			print "  verifier (" c "): " prog ": " last
			next
		}
		inlog && !/^processed / { last = $0 }' "$f"
	done
}

apt_lists
make_root
declare -A TIME VERDICT
vers=()
for suite in $KERNELS; do
	pkg=$(kernel_pkg "$suite")
	[ -n "$pkg" ] || die "no linux-image-amd64 in $suite"
	ver=${pkg#linux-image-}
	add_kernel "$pkg" "$ver" || die "cannot add $pkg to the root"
	vers+=("$ver")
done
install_init
make_image
for ver in "${vers[@]}"; do
	say "booting $ver (console: $WORK/$ver/console.log)"
	if run_kernel "$ver"; then
		VERDICT[$ver]=PASS
	else
		VERDICT[$ver]=FAIL
		grep -a 'FAIL' "$WORK/$ver/out/guest.log" 2>/dev/null | head -20 |
			sed 's/^/  /'
		refusals "$WORK/$ver/out"
	fi
done
rc=0
for ver in "${vers[@]}"; do
	say "${VERDICT[$ver]} $ver (${TIME[$ver]} s, $ACCEL)"
	[ "${VERDICT[$ver]}" = PASS ] || rc=1
done
exit $rc
