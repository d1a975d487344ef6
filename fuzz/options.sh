# fuzz/options.sh — sourced by fuzz/smoke.sh and fuzz/speed.sh: the
# libFuzzer flags of a harness's fuzz/HARNESS.options.
#
#   harness_options HARNESS
#
# Sets the array `opts` to the options file's `key = value` lines as
# -key=value flags, and `dict` to the dictionary it names (a file of
# fuzz/; hcl.dict when it names none).
harness_options() {
    local line key value
    opts=()
    dict=hcl.dict
    while IFS= read -r line; do
        case "$line" in
            *=*)
                key=$(printf '%s' "${line%%=*}" | tr -d ' ')
                value=$(printf '%s' "${line#*=}" | tr -d ' ')
                if [ "$key" = dict ]; then dict=$value; else opts+=("-$key=$value"); fi
                ;;
        esac
    done < "fuzz/$1.options"
}
