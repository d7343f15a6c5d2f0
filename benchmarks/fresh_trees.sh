# shellcheck shell=bash
# Sourced by the fresh_sets_*.sh scripts: one language's source tree from their table of trees.
# copy_trees TREES LANG GHDIR DEST: for each `OWNER+NAME commit language folders…` row of TREES
# in LANG, its folders from GHDIR/OWNER+NAME (an exported snapshot) to DEST/OWNER+NAME.
copy_trees() {
    local trees=$1 lang=$2 gh=$3 dest=$4 proj _sha tree_lang folders f
    while read -r proj _sha tree_lang folders; do
        [ "$tree_lang" = "$lang" ] || continue
        for f in $folders; do mkdir -p "$dest/$proj/$(dirname "$f")"; cp -r "$gh/$proj/$f" "$dest/$proj/$f"; done
    done <<< "$trees"
}
