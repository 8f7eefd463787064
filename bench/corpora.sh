#!/usr/bin/env bash
# Prepares corpora of real code (none of it from this repo) for the coverage
# benchmark (bench/coverage.sh), one tree per language under
# ${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}/<lang>/, and prints a table
# of language, files, MB and origin.
#
#   bash bench/corpora.sh [LANG...]        # default: all languages
#   CORPORA_REBUILD=1 bash bench/corpora.sh python   # rebuild one
#   bash bench/corpora.sh markdown         # Markdown, for the documentation search (not in the default)
#
# Idempotent: a finished corpus (marked by <lang>.origin beside it) is kept.
# Each corpus holds only files of its language's extensions, taken in a fixed
# (sorted) order until CORPUS_MAX_FILES (1500) files or CORPUS_MAX_MB (40) MB.
# Directory names that the scanner skips by default (node_modules, target,
# venv, ...) are renamed on the way, so that the scanner and ctags see the same
# files. Downloads (Maven sources jars, an npm tree) are kept in .downloads/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" # (STDLIB, stdlib_files)

DIR="${VIBE_CORPORA:-$HOME/.cache/vibe-bench/corpora}"
DL="$DIR/.downloads"
MAX_FILES="${CORPUS_MAX_FILES:-1500}"
MAX_BYTES=$(( ${CORPUS_MAX_MB:-40} * 1024 * 1024 ))
ALL=(python go rust java kotlin javascript typescript bash csharp batch c cpp php ruby lua elixir scala haskell zig)
LANGS=("${@:-${ALL[@]}}")
mkdir -p "$DL"
log() { echo "[corpora] $*" >&2; }

# fill LANG ORIGIN: read "SOURCE<TAB>DEST" lines (DEST relative to the corpus)
# and copy them, in order, into $DIR/LANG.tmp until the caps; ORIGIN goes to
# $DIR/LANG.tmp.origin. The main loop moves both in place once build succeeded.
fill() {
    local lang="$1" origin="$2" tmp="$DIR/$1.tmp" n=0 bytes=0 src dst size
    rm -rf "$tmp"; mkdir -p "$tmp"
    while IFS=$'\t' read -r src dst; do
        size=$(stat -c %s "$src")
        [ "$size" -gt 0 ] || continue
        [ $((bytes + size)) -le "$MAX_BYTES" ] || break
        # Rename the directories the scanner excludes by default.
        dst="$(sed -E 's#(^|/)(node_modules|target|venv|\.venv|__pycache__|\.git|\.idea)/#\1\2_/#g' <<<"$dst")"
        mkdir -p "$tmp/$(dirname "$dst")"
        cp "$src" "$tmp/$dst"
        n=$((n + 1)); bytes=$((bytes + size))
        [ "$n" -lt "$MAX_FILES" ] || break
    done
    cat >/dev/null # drain the rest, so that the writer gets no SIGPIPE
    echo "$origin" >"$tmp.origin"
}

# Lines "SOURCE<TAB>DEST" for the files under ROOT (sorted) matching find's
# expression; DEST is PREFIX/path-below-ROOT.
under() {
    local root="$1" prefix="$2"; shift 2
    (cd "$root" && find . "$@" -type f -print | sed 's#^\./##' | LC_ALL=C sort) \
        | awk -v r="$root" -v p="$prefix" '{ d = (p == "") ? $0 : p "/" $0; print r "/" $0 "\t" d }'
}

# Keep the first of several files with the same content (system trees repeat
# the same scripts many times).
dedup() {
    local -A seen=()
    local src dst h
    while IFS=$'\t' read -r src dst; do
        h="$(md5sum <"$src")"
        [ -n "${seen[$h]:-}" ] || { seen[$h]=1; printf '%s\t%s\n' "$src" "$dst"; }
    done
}

# Lines "PATH<TAB>DEST" for absolute paths on stdin: DEST is the path with
# the downloads dir as downloads/ and $HOME as home/.
system_dest() {
    awk -v dl="$DL/" -v home="$HOME/" '{ d = $0
        if (index(d, dl) == 1) d = "downloads/" substr(d, length(dl) + 1)
        else if (index(d, home) == 1) d = "home/" substr(d, length(home) + 1)
        else d = substr(d, 2)
        print $0 "\t" d }'
}

# Maven sources jars, unzipped into $DL/mvn/<artifact>-<version>/.
JAVA_JARS=(com.google.guava:guava:32.1.3-jre com.fasterxml.jackson.core:jackson-databind:2.15.2
    org.apache.commons:commons-lang3:3.12.0)
KOTLIN_JARS=(org.jetbrains.kotlin:kotlin-stdlib:1.9.22 org.jetbrains.kotlinx:kotlinx-coroutines-core-jvm:1.7.3
    com.squareup.okio:okio-jvm:3.6.0 com.squareup.okhttp3:okhttp:4.12.0)
mvn_copy() { # ARTIFACT DIR
    mvn -q -B dependency:copy -Dartifact="$1" -DoutputDirectory="$2" >"$DL/mvn.log" 2>&1 \
        || { cat "$DL/mvn.log" >&2; return 1; }
}
jar_dir() { local a="${1#*:}"; echo "$DL/mvn/${a/:/-}"; }
# mvn_unzip GAV DIR ARCHIVE [MEMBER...]: unless DIR exists, copies GAV from
# Maven into ARCHIVE's directory and unzips ARCHIVE (its MEMBER patterns only,
# when given) into DIR.
mvn_unzip() {
    local gav="$1" d="$2" archive="$3"; shift 3
    [ -d "$d" ] && return 0
    log "mvn: $gav"
    mvn_copy "$gav" "$(dirname "$archive")"
    mkdir -p "$d.tmp"
    unzip -q -o "$archive" "$@" -d "$d.tmp" 2>/dev/null || [ $? -eq 11 ] # 11: a pattern matched nothing
    mv "$d.tmp" "$d"
}
fetch_jars() {
    local gav d
    for gav in "$@"; do
        d="$(jar_dir "$gav")"
        mvn_unzip "$gav:jar:sources" "$d" "$d-sources.jar"
    done
}
# Distribution zips with Windows launch scripts (only their .bat/.cmd are kept).
BATCH_ZIPS=(org.apache.tomcat:tomcat:10.1.59:zip org.apache.maven:apache-maven:3.9.16:zip:bin)
fetch_zips() {
    local gav d classifier
    for gav in "${BATCH_ZIPS[@]}"; do
        d="$DL/mvn/$(cut -d: -f2,3 <<<"$gav" | tr : -)"
        classifier="$(cut -d: -f5 <<<"$gav")"
        mvn_unzip "$gav" "$d" "$DL/zip/$(basename "$d")${classifier:+-$classifier}.zip" '*.bat' '*.cmd'
    done
}
from_jars() { # EXT_REGEX JAR...
    local re="$1" gav; shift
    for gav in "$@"; do under "$(jar_dir "$gav")" "$(basename "$(jar_dir "$gav")")" -regex "$re"; done
}

# One npm tree for JavaScript, TypeScript, C# and batch files (no install scripts run).
NPM_PKGS=(lodash@4.18.1 express@5.3.0 react-dom@19.3.1 @babel/runtime@8.1.3 postcss@8.5.33
    rxjs@7.8.2 zod@4.6.7 com.neuecc.unirx@7.1.0 com.cysharp.unitask@2.2.5 edge-js@26.1.0)
NM="$DL/npm/node_modules"
fetch_npm() {
    [ -d "$NM/com.cysharp.unitask" ] && return 0
    log "npm install ${NPM_PKGS[*]}"
    npm install --prefix "$DL/npm" --no-audit --no-fund --ignore-scripts --loglevel=error "${NPM_PKGS[@]}" >&2
}

# Debian source packages, through a private apt state in $DL/apt (deb-src
# lines of the machine's own Debian sources; the system's apt state is left
# alone, no root needed): `apt-get source --download-only`, then the
# upstream tarball (`*.orig.tar.*`) unpacked into $DL/deb/<package>/. GitHub
# is not reachable from the bench machines; Debian's archive is, and holds
# the well-known trees (curl, redis, libuv, fmt, nlohmann/json, abseil,
# monolog, laravel, rack, rails, penlight, neovim's runtime, busted, Elixir,
# Scala's library, xmonad, pandoc).
APT_DIR="$DL/apt"
apt_src() { # apt-get/apt-cache ARGS... with the private deb-src state
    local tool="$1"; shift
    "$tool" -o APT::Sandbox::User="$(id -un)" -o Dir::Etc::SourceList="$APT_DIR/none.list" -o Dir::Etc::SourceParts="$APT_DIR/parts" \
        -o Dir::State::Lists="$APT_DIR/lists" -o Dir::Cache="$APT_DIR/cache" "$@"
}
apt_src_update() {
    [ -f "$APT_DIR/updated" ] && return 0
    mkdir -p "$APT_DIR/parts" "$APT_DIR/lists/partial" "$APT_DIR/cache"
    : >"$APT_DIR/none.list"
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && sed 's/^Types: deb$/Types: deb-src/' "$f" >"$APT_DIR/parts/$(basename "$f")"
    done
    if [ -f /etc/apt/sources.list ]; then
        grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' >"$APT_DIR/parts/sources.list" || true
    fi
    log "apt-get update (deb-src, private state in $APT_DIR)"
    apt_src apt-get update -qq >&2
    touch "$APT_DIR/updated"
}
deb_source() { # PACKAGE: unpacks its upstream tarball into $DL/deb/PACKAGE (once)
    local pkg="$1" d="$DL/deb/$1" get="$DL/deb/.get-$1" tarball
    [ -d "$d" ] && return 0
    apt_src_update
    log "apt-get source $pkg"
    rm -rf "$get" "$d.tmp"; mkdir -p "$get" "$d.tmp"
    if (cd "$get" && apt_src apt-get source --download-only -qq "$pkg" >&2 2>/dev/null); then
        tarball="$(ls "$get"/*.orig.tar.* | grep -v '\.asc$' | head -n1)"
        tar -xf "$tarball" -C "$d.tmp" --strip-components=1
        basename "$(ls "$get"/*.dsc)" .dsc | sed 's/^[^_]*_//' >"$DL/deb/$pkg.version"
    else
        # The mirror may lack a source the index lists (a newer security
        # update): the binary package of that name, unpacked, holds the
        # sources of a scripting language (Ruby, PHP) all the same.
        log "no source of $pkg on the mirror: its binary package"
        (cd "$get" && apt-get download -qq "$pkg" >&2)
        dpkg-deb -x "$get"/*.deb "$d.tmp"
        dpkg-deb -f "$get"/*.deb Version | sed 's/$/ (binary package)/' >"$DL/deb/$pkg.version"
    fi
    rm -rf "$get"
    mv "$d.tmp" "$d"
}
deb_version() { cat "$DL/deb/$1.version" 2>/dev/null || true; }
fetch_debs() { local p; for p in "$@"; do deb_source "$p"; done; }
# Lines "SOURCE<TAB>DEST" for the files of Debian source packages (fetched
# first) matching find's expression, DEST <package>/<path>; deb_origin names
# them with their versions.
from_debs() { # FIND-EXPR... -- PACKAGE...
    local expr=() p
    while [ "$1" != "--" ]; do expr+=("$1"); shift; done
    shift
    for p in "$@"; do under "$DL/deb/$p" "$p" "${expr[@]}"; done
}
deb_origin() { local p out=""; for p in "$@"; do out+="${out:+, }$p $(deb_version "$p")"; done; echo "Debian packages: $out"; }
C_DEBS=(curl redis libuv1)
CPP_DEBS=(fmtlib nlohmann-json3 abseil)
PHP_DEBS=(php-monolog php-laravel-framework)
RUBY_DEBS=(ruby-rack ruby-activesupport ruby-activerecord ruby-actionpack)
LUA_DEBS=(lua-penlight neovim-runtime lua-busted)
ELIXIR_DEBS=(elixir-lang)
SCALA_DEBS=(scala)
HASKELL_DEBS=(xmonad xmonad-contrib pandoc)

# Zig is in no Debian release of the bench machines; PyPI's `ziglang` wheel
# ships the Zig toolchain with the sources of its standard library
# (ziglang/lib/std), unpacked into $DL/pypi/ziglang-<version>/.
ZIG_WHEEL=ziglang==0.17.0
zig_dir() { echo "$DL/pypi/ziglang-${ZIG_WHEEL#*==}"; }
fetch_zig() {
    local d; d="$(zig_dir)"
    [ -d "$d" ] && return 0
    log "pip download $ZIG_WHEEL"
    rm -rf "$d.tmp" "$DL/pypi/.wheel"; mkdir -p "$d.tmp" "$DL/pypi/.wheel"
    python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_12_x86_64 \
        -d "$DL/pypi/.wheel" "$ZIG_WHEEL" >&2
    unzip -q "$DL/pypi/.wheel"/ziglang-*.whl 'ziglang/lib/std/*' -d "$d.tmp"
    rm -rf "$DL/pypi/.wheel"
    mv "$d.tmp" "$d"
}

GOSRC="$(go env GOROOT 2>/dev/null || echo /usr/local/go)/src"
SYSTEM_ROOTS=(/usr /etc "$HOME/.pyenv" "$HOME/.cargo/registry/src" "$NM")

# The newest version of each crate in the cargo registry, by name; windows*
# crates are generated bindings and skipped.
newest_crates() {
    ls -d "$HOME"/.cargo/registry/src/*/*/ | xargs -n1 basename | LC_ALL=C sort -V \
        | awk '{ n = $0; sub(/-[0-9][^-]*(-[^-]*)?$/, "", n); last[n] = $0 } END { for (n in last) print last[n] }' \
        | LC_ALL=C sort | grep -v '^windows'
}

build_corpus() {
    local lang="$1"
    case "$lang" in
    python)
        # The stdlib's files as lib.sh lists them (the one stdlib source of the benches).
        stdlib_files -name '*.py' -not -path '*/test/*' -not -path '*/tests/*' -not -path '*/idle_test/*' \
            -not -path './venv/*' | awk -v r="$STDLIB" '{ print r "/" $0 "\t" $0 }' \
            | fill python "CPython $(python3 -c 'import platform;print(platform.python_version())') stdlib, no site-packages/tests"
        ;;
    go)
        under "$GOSRC" "" -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*' \
            -not -path './cmd/*' -not -path '*/vendor/*' \
            | fill go "$(go version | cut -d' ' -f3) src (sorted packages, no cmd/, vendor, tests, testdata)"
        ;;
    rust)
        # Newest version of each crate in the cargo registry (newest_crates), src/ only.
        local c d
        for c in $(newest_crates); do
            d="$(ls -d "$HOME"/.cargo/registry/src/*/"$c" | head -n1)"
            if [ -d "$d/src" ]; then under "$d/src" "$c" -name '*.rs'; else under "$d" "$c" -maxdepth 1 -name '*.rs'; fi
        done | fill rust "crates.io crates in ~/.cargo/registry (newest version each, src/ only or the top-level .rs files, sorted)"
        ;;
    markdown)
        # The Markdown of the newest version of each crate in the cargo
        # registry (READMEs, changelogs, guides): for the documentation
        # search, not in ALL (no ctags oracle).
        local c d
        for c in $(newest_crates); do
            d="$(ls -d "$HOME"/.cargo/registry/src/*/"$c" | head -n1)"
            under "$d" "$c" -name '*.md'
        done | fill markdown "Markdown of crates.io crates in ~/.cargo/registry (newest version each, sorted)"
        ;;
    java)
        fetch_jars "${JAVA_JARS[@]}"
        from_jars '.*\.java' "${JAVA_JARS[@]}" | fill java "Maven sources jars: ${JAVA_JARS[*]}"
        ;;
    kotlin)
        fetch_jars "${KOTLIN_JARS[@]}"
        from_jars '.*\.kts?' "${KOTLIN_JARS[@]}" | fill kotlin "Maven sources jars: ${KOTLIN_JARS[*]}"
        ;;
    javascript)
        # Hand-written CommonJS (lodash, express and its dependencies), bundled
        # and compiled code (react-dom/cjs, @babel/runtime helpers, postcss,
        # rxjs's tsc-compiled ES5 CommonJS).
        fetch_npm
        { # (no minified files)
            under "$NM/lodash" lodash -maxdepth 1 -name '*.js'
            under "$NM/@babel/runtime/helpers" babel-runtime-helpers -maxdepth 1 -name '*.js'
            under "$NM/react-dom/cjs" react-dom-cjs -name '*.js'
            under "$NM/postcss/lib" postcss-lib -name '*.js'
            under "$NM/rxjs/dist/cjs" rxjs-dist-cjs -name '*.js'
            under "$NM" deps -regex '.*\.[cm]?js' -not -path './lodash/*' -not -path './@babel/*' \
                -not -path './react*' -not -path './postcss/*' -not -path './rxjs/*' -not -path './zod/*' \
                -not -path './com.*' -not -path './edge-*' -not -path './nan/*'
        } | grep -v '\.min\.js'$'\t' | fill javascript "npm: lodash, @babel/runtime/helpers, react-dom/cjs, postcss/lib, rxjs/dist/cjs, express 5 + deps"
        ;;
    typescript)
        fetch_npm
        { under "$NM/rxjs/src" rxjs-src -name '*.ts' -not -name '*.d.ts'
          under "$NM/zod/src" zod-src -name '*.ts' -not -name '*.d.ts'; } \
            | fill typescript "npm: rxjs 7.8.2 src/, zod 4.6.7 src/ (.ts sources, no .d.ts)"
        ;;
    csharp)
        fetch_npm
        { under "$NM/com.neuecc.unirx" unirx -name '*.cs'
          under "$NM/com.cysharp.unitask" unitask -name '*.cs'
          under "$NM/edge-js" edge-js -name '*.cs'; } \
            | fill csharp "npm packages shipping C#: com.neuecc.unirx (UniRx), com.cysharp.unitask (UniTask), edge-js"
        ;;
    bash)
        # *.sh files, and files whose shebang is sh/bash (copied with a .sh suffix).
        fetch_npm
        local r
        for r in "${SYSTEM_ROOTS[@]}" "$GOSRC"; do
            [ -d "$r" ] || continue
            find "$r" -xdev -type f \( -name '*.sh' -o -name '*.bash' \) -print
            find "$r" -xdev -type f ! -name '*.*' -size -256k -print0 \
                | xargs -0 -r awk 'FNR == 1 { if ($0 ~ /^#! *(\/usr)?\/bin\/(env +)?(ba)?sh([ \t]|$)/) print FILENAME; nextfile }'
        done 2>/dev/null | LC_ALL=C sort -u \
            | system_dest | awk -F'\t' -v OFS='\t' '$2 !~ /\.(sh|bash)$/ { $2 = $2 ".sh" } 1' \
            | dedup | fill bash "system scripts (/usr, /etc, ~/.pyenv, Go src, cargo registry, npm tree): *.sh and sh/bash shebang files, deduplicated"
        ;;
    batch)
        fetch_npm; fetch_zips
        local r
        for r in "${SYSTEM_ROOTS[@]}" "$GOSRC" "$DL/mvn"; do
            [ -d "$r" ] && find "$r" -xdev -type f \( -iname '*.bat' -o -iname '*.cmd' \) -print
        done 2>/dev/null | LC_ALL=C sort -u | system_dest \
            | dedup | fill batch "every .bat/.cmd on the machine and in the npm tree, Tomcat 10.1.59 and Maven 3.9.16 zips (Maven Central), deduplicated"
        ;;
    c)
        # Sources and headers of the C packages, without tests and examples
        # (a `.h` the scanner reads as C++ does not count: none here).
        fetch_debs "${C_DEBS[@]}"
        from_debs \( -name '*.c' -o -name '*.h' \) -not -path '*/tests/*' -not -path '*/test/*' \
            -not -path '*/deps/*' -not -path '*/docs/*' -not -path '*/examples/*' -- "${C_DEBS[@]}" \
            | fill c "$(deb_origin "${C_DEBS[@]}") (.c and .h, no tests, docs, examples or redis' bundled deps)"
        ;;
    cpp)
        fetch_debs "${CPP_DEBS[@]}"
        from_debs \( -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.hpp' -o -name '*.hh' -o -name '*.h' \) \
            -not -path '*/test/*' -not -path '*/tests/*' -not -path '*/docs/*' -not -path '*/doc/*' \
            -not -path './single_include/*' -not -name '*_test.cc' -not -name '*_benchmark.cc' -- "${CPP_DEBS[@]}" \
            | fill cpp "$(deb_origin "${CPP_DEBS[@]}") (C++ sources and headers, no tests, docs or nlohmann's amalgamation)"
        ;;
    php)
        fetch_debs "${PHP_DEBS[@]}"
        from_debs -name '*.php' -not -path '*/tests/*' -not -path '*/Tests/*' -not -path '*/stubs/*' -- "${PHP_DEBS[@]}" \
            | fill php "$(deb_origin "${PHP_DEBS[@]}") (.php, no tests or stubs)"
        ;;
    ruby)
        fetch_debs "${RUBY_DEBS[@]}"
        from_debs \( -name '*.rb' -o -name '*.rake' \) -not -path '*/test/*' -not -path '*/spec/*' \
            -not -path '*/templates/*' -not -name '*.tt' -- "${RUBY_DEBS[@]}" \
            | fill ruby "$(deb_origin "${RUBY_DEBS[@]}") (.rb and .rake, no tests, specs or generator templates)"
        ;;
    lua)
        fetch_debs "${LUA_DEBS[@]}"
        from_debs -name '*.lua' -not -path '*/spec/*' -not -path '*/tests/*' -not -path '*/test/*' -- "${LUA_DEBS[@]}" \
            | fill lua "$(deb_origin "${LUA_DEBS[@]}") (.lua, no specs or tests)"
        ;;
    elixir)
        fetch_debs "${ELIXIR_DEBS[@]}"
        from_debs \( -name '*.ex' -o -name '*.exs' \) -path './lib/*' -not -path '*/test/*' -- "${ELIXIR_DEBS[@]}" \
            | fill elixir "$(deb_origin "${ELIXIR_DEBS[@]}") (lib/: the standard library, Mix, ExUnit, IEx, Logger, EEx; no tests)"
        ;;
    scala)
        fetch_debs "${SCALA_DEBS[@]}"
        from_debs -name '*.scala' -not -path '*/test/*' -not -path '*/tests/*' -not -path './src/scaladoc/*' \
            -not -path './src/partest*' -not -path './src/compiler/*' -not -path './docs/*' -- "${SCALA_DEBS[@]}" \
            | fill scala "$(deb_origin "${SCALA_DEBS[@]}") (.scala: the library, reflect, repl and the rest of src/ but the compiler, scaladoc and partest; no tests or docs)"
        ;;
    haskell)
        fetch_debs "${HASKELL_DEBS[@]}"
        from_debs -name '*.hs' -not -path '*/test*' -not -path '*/tests/*' -not -path '*/benchmark/*' -- "${HASKELL_DEBS[@]}" \
            | fill haskell "$(deb_origin "${HASKELL_DEBS[@]}") (.hs, no tests or benchmarks)"
        ;;
    zig)
        fetch_zig
        under "$(zig_dir)/ziglang/lib/std" std -name '*.zig' -not -path '*/testdata/*' \
            | fill zig "PyPI ${ZIG_WHEEL/==/ } (lib/std, the standard library; no test data)"
        ;;
    *) log "unknown language $lang"; return 1 ;;
    esac
}

for lang in "${LANGS[@]}"; do
    if [ -n "${CORPORA_REBUILD:-}" ] || [ ! -f "$DIR/$lang.origin" ] || [ ! -d "$DIR/$lang" ]; then
        log "building $lang"
        rm -f "$DIR/$lang.origin"
        build_corpus "$lang" # (exits here when a step of it fails)
        rm -rf "${DIR:?}/$lang"; mv "$DIR/$lang.tmp" "$DIR/$lang"; mv "$DIR/$lang.tmp.origin" "$DIR/$lang.origin"
    fi
done

printf '%-11s %6s %7s  %s\n' language files MB origin
for lang in "${LANGS[@]}"; do
    printf '%-11s %6d %7.1f  %s\n' "$lang" "$(find "$DIR/$lang" -type f | wc -l)" \
        "$(du -sb "$DIR/$lang" | awk '{ print $1 / 1048576 }')" "$(cat "$DIR/$lang.origin")"
done
echo "corpora: $DIR"
