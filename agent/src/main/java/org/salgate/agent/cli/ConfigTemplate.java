package org.salgate.agent.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Renders, from the agent's own option declarations, the commented configuration file holding every
 * option with its default (agent/src/main/config/agent.yaml) and the configuration reference
 * (docs/reference/agent-options.md), so that neither can drift from the code.
 */
final class ConfigTemplate {

    /** Options a reload (SIGHUP) applies; a change of any other is logged as needing a restart. */
    static final Set<String> RELOADABLE = Set.of("config", "dummy-sensors", "dummy-payload-bytes", "log-level",
            "log-levels");

    private static final int WIDTH = 100;

    private ConfigTemplate() {}

    /** The commented YAML file: each option's description, then the option with its default, commented out. */
    static String yaml(CommandSpec spec) {
        StringBuilder text = new StringBuilder();
        comment(text, "The salgate agent's configuration. Each key is a long option of `salgate-agent --help`"
                + " without its dashes; every option is here, commented out at its default: uncomment a line to set"
                + " it. The agent reads this file with --config-file FILE, then the *.yaml fragments of --config-dir"
                + " (default: conf.d beside this file) in name order, a later value winning and a list replacing;"
                + " SALGATE_<KEY> environment variables (SALGATE_MQTT_URL) win over the files, and the command line"
                + " wins over everything. `salgate-agent --config-file FILE --check` checks a change before a"
                + " restart; --print-config shows what the agent would run with. As it stands the agent listens on"
                + " 127.0.0.1 only.");
        comment(text, "Given on the command line only: " + String.join(", ", commandLineOnly(spec)) + ".");
        comment(text, "Secrets are never values here: tokens, tls-key and mqtt-password-file name files (keep them"
                + " unreadable by other users), and SALGATE_MQTT_PASSWORD may hold the MQTT password.");
        for (Map.Entry<String, OptionSpec> e : Settings.configurable(spec).entrySet()) {
            text.append('\n');
            OptionSpec option = e.getValue();
            comment(text, description(option) + (RELOADABLE.contains(e.getKey()) ? " A reload applies it." : ""));
            text.append('#').append(e.getKey()).append(": ").append(example(option)).append('\n');
        }
        return text.toString();
    }

    /** The configuration reference: each key, its environment variable, default, and whether a reload applies it. */
    static String markdown(CommandSpec spec, String regenerate) {
        StringBuilder text = new StringBuilder("# salgate-agent configuration keys\n\n")
                .append("<!-- Generated from the code by ConfigTemplateTest; do not edit. Regenerate with:\n     ")
                .append(regenerate).append(" -->\n\n")
                .append("Every key of the configuration file (`--config-file`, fragments in `--config-dir`), with the"
                        + " environment variable that wins over it and the command-line option that wins over both."
                        + " A list is written `[a, b]` (or one `- item` a line) in the file, and comma-separated in"
                        + " the environment; a mapping is `{name: value}` in the file and `name=value,...` in the"
                        + " environment. See [configuration](../configuration.md).\n\n")
                .append("Given on the command line only: ")
                .append(String.join(", ", commandLineOnly(spec).stream().map(o -> "`" + o + "`").toList()))
                .append(".\n\n")
                .append("| Key | Environment | Default | On reload | Description |\n")
                .append("| --- | --- | --- | --- | --- |\n");
        for (Map.Entry<String, OptionSpec> e : Settings.configurable(spec).entrySet()) {
            OptionSpec option = e.getValue();
            text.append("| `").append(e.getKey()).append("` | `").append(Settings.environmentVariable(e.getKey()))
                    .append("` | ").append(cell(defaultText(option))).append(" | ")
                    .append(RELOADABLE.contains(e.getKey()) ? "applied" : "restart").append(" | ")
                    .append(cell(description(option))).append(" |\n");
        }
        return text.toString();
    }

    private static List<String> commandLineOnly(CommandSpec spec) {
        Set<String> names = new TreeSet<>();
        for (OptionSpec option : spec.options()) {
            if (Settings.COMMAND_LINE_ONLY.contains(Settings.key(option))) {
                names.add(option.longestName());
            }
        }
        return new ArrayList<>(names);
    }

    /** The option's description with its default value put in. */
    static String description(OptionSpec option) {
        String text = String.join(" ", option.description());
        String defaultValue = option.defaultValue() == null ? "" : option.defaultValue();
        return text.replace("${DEFAULT-VALUE}", defaultValue);
    }

    /** The option's default as YAML writes it, or its placeholder when it has none. */
    static String example(OptionSpec option) {
        String label = option.paramLabel().replaceAll("^<(.*)>$", "$1");
        if (option.arity().max() == 0) {
            return "false";
        }
        if (option.typeInfo().isMap()) {
            String[] pair = label.split("=", 2);
            return "{" + pair[0] + ": " + (pair.length > 1 ? pair[1] : "VALUE") + "}";
        }
        if (option.isMultiValue()) {
            return "[" + label + "]";
        }
        return option.defaultValue() != null ? option.defaultValue() : label;
    }

    /** The option's default for the reference: what an unset option is, or none. */
    static String defaultText(OptionSpec option) {
        if (option.arity().max() == 0) {
            return "false";
        }
        return option.defaultValue() != null && !option.isMultiValue() ? option.defaultValue() : "none";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** Appends the text as comment lines no wider than {@link #WIDTH}. */
    private static void comment(StringBuilder out, String text) {
        StringBuilder line = new StringBuilder("#");
        for (String word : text.split(" ")) {
            if (line.length() + 1 + word.length() > WIDTH && line.length() > 1) {
                out.append(line).append('\n');
                line = new StringBuilder("#");
            }
            line.append(' ').append(word);
        }
        out.append(line).append('\n');
    }
}
