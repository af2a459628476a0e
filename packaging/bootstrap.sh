# Shared set-up for run.sh and test.sh (sourced, not executed): install the Debian packages in
# packaging/debian-packages.txt (and, for test.sh, debian-packages-test.txt) that are missing,
# then configure and build a CMake preset.

bs_log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }

# bs_missing_packages LIST...: the packages of the lists (packaging/LIST) not installed yet.
bs_missing_packages() {
    local pkg list missing=()
    for list in "$@"; do
        while read -r pkg; do
            pkg=${pkg%%#*}
            pkg=${pkg//[[:space:]]/}
            [ -n "$pkg" ] || continue
            # "a|b": a where the archive has it (a newer tool from bookworm-security), else b.
            local alt installed=0 choice=
            for alt in ${pkg//|/ }; do
                if dpkg-query -W -f='${Status}' "$alt" 2>/dev/null | grep -q "install ok installed"; then
                    installed=1
                    break
                fi
            done
            [ "$installed" = 1 ] && continue
            for alt in ${pkg//|/ }; do
                choice=$alt
                apt-cache show "$alt" >/dev/null 2>&1 && break
            done
            missing+=("$choice")
        done < "$BS_ROOT/packaging/$list"
    done
    printf '%s\n' "${missing[@]}"
}

# bs_install_packages [LIST...]: installs what is missing of the lists (default: the app's).
bs_install_packages() {
    local missing
    [ "$#" -gt 0 ] || set -- debian-packages.txt
    mapfile -t missing < <(bs_missing_packages "$@")
    [ "${#missing[@]}" -gt 0 ] && [ -n "${missing[0]}" ] || return 0
    bs_log "Installing missing Debian packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            sudo=(sudo)
        else
            echo "error: these packages are missing and I am not root (and there is no sudo): ${missing[*]}" >&2
            return 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# bs_build PRESET: configure (once) and build build/PRESET.
bs_build() {
    # bs_build PRESET [TARGET...]: configure once, then build every target or those named.
    local preset=$1
    shift
    if [ ! -f "$BS_ROOT/build/$preset/build.ninja" ]; then
        bs_log "Configuring ($preset)"
        cmake --preset "$preset" -S "$BS_ROOT" >/dev/null
    fi
    bs_log "Building ($preset)"
    if [ $# -gt 0 ]; then
        cmake --build "$BS_ROOT/build/$preset" --parallel "$(nproc)" --target "$@"
    else
        cmake --build "$BS_ROOT/build/$preset" --parallel "$(nproc)"
    fi
}
