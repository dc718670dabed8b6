// Shell completion: the command words, generated from the command table so it never lags behind it.

/**
 * @param {string} shell bash, zsh or fish
 * @param {string[]} commands the command table's names ("devices list", "export" …)
 */
export function completionScript(shell, commands) {
  const groups = [...new Set(commands.map((name) => name.split(" ")[0]))];
  /** @type {Record<string, string[]>} */
  const subs = {};
  for (const name of commands) {
    const [group, sub] = name.split(" ");
    if (group && sub) subs[group] = [...(subs[group] ?? []), sub];
  }
  if (shell === "fish") {
    const lines = [`complete -c cellfleet -f -n "__fish_use_subcommand" -a "${groups.join(" ")}"`];
    for (const [group, words] of Object.entries(subs)) {
      lines.push(
        `complete -c cellfleet -f -n "__fish_seen_subcommand_from ${group}" -a "${words.join(" ")}"`,
      );
    }
    lines.push('complete -c cellfleet -l json -d "one JSON document on stdout"');
    return `${lines.join("\n")}\n`;
  }
  const cases = Object.entries(subs)
    .map(
      ([group, words]) =>
        `    ${group}) COMPREPLY=($(compgen -W "${words.join(" ")} --json --help" -- "$cur")) ;;`,
    )
    .join("\n");
  const bash = `_cellfleet() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${groups.join(" ")} --help" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
    *) COMPREPLY=($(compgen -W "--json --help" -- "$cur")) ;;
  esac
}
complete -F _cellfleet cellfleet
`;
  // zsh reads bash completions through bashcompinit.
  return shell === "zsh" ? `autoload -U +X bashcompinit && bashcompinit\n${bash}` : bash;
}
