#!/usr/bin/env bash
# Make sure the Debian packages the build and tests need are installed.
# As root, installs what is missing; otherwise names it and fails.
# With the argument "kernels", also what make test-kernels needs (only
# then: qemu and debootstrap are big, and plain make has no use for them).
set -euo pipefail

# The corpus tests run real applications: javac over the JDK's own
# sources (openjdk-17-source, unzip), Tomcat with its examples under ab,
# Rhino (a JavaScript engine in Java) running a script.
pkgs=(make gcc clang llvm libbpf-dev bpftool libelf-dev libdw-dev zlib1g-dev
      systemtap-sdt-dev linux-perf libxml2-utils procps util-linux time
      openjdk-17-jdk-headless chromium golang-go
      openjdk-17-source unzip tomcat10 tomcat10-examples apache2-utils rhino)
[ "${1:-}" = kernels ] && pkgs+=(qemu-system-x86 debootstrap e2fsprogs)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
# Any installed JDK with javac will do; only add one when none is there.
if command -v javac >/dev/null 2>&1; then
	missing=("${missing[@]/openjdk-17-jdk-headless}")
fi
# The browser tests run node (any install of it); Debian's when none.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
missing=($(printf '%s\n' "${missing[@]}" | sed '/^$/d'))
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "mixprof: missing Debian packages: ${missing[*]} (run as root, or: apt-get install ${missing[*]})" >&2
	exit 1
fi
echo "mixprof: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# tomcat10's package starts its service where an init runs services: a
# JVM of its own all the time, beside every test (host-wide ones see
# it). Services are not started while we install (policy-rc.d's 101).
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
	trap 'rm -f "$policy"' EXIT
	printf '#!/bin/sh\nexit 101\n' >"$policy"
	chmod 755 "$policy"
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
