package org.salgate.reference;

import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Renders a command's options, arguments and subcommands as Markdown from picocli's model, for the
 * user guide's option reference: descriptions as {@code --help} words them, with their defaults;
 * the environment variable that sets an option, when given. Nothing depends on the machine.
 */
final class OptionReference {

    private final StringBuilder out = new StringBuilder();
    private final Map<String, String> environment;

    private OptionReference(Map<String, String> environment) {
        this.environment = environment;
    }

    /**
     * The reference of {@code root} and its subcommands.
     *
     * @param environment the variable that gives an option its default, by the option's longest name
     * @param regenerate the command that writes the reference again, for the generated-file note
     */
    static String render(CommandLine root, Map<String, String> environment, String regenerate) {
        OptionReference r = new OptionReference(environment);
        CommandSpec spec = root.getCommandSpec();
        r.line("# " + spec.name() + " options");
        r.line("");
        r.line("<!-- Generated from the code by OptionReferenceTest; do not edit. Regenerate with:");
        r.line("     " + regenerate + " -->");
        r.command(spec);
        r.paragraphs(spec.usageMessage().footer());
        return r.out.toString();
    }

    private void command(CommandSpec spec) {
        paragraphs(spec.usageMessage().description());
        List<PositionalParamSpec> arguments = spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
        if (!arguments.isEmpty()) {
            line("");
            line("| Argument | Description |");
            line("| --- | --- |");
            for (PositionalParamSpec p : arguments) {
                line("| `" + p.paramLabel() + "` | " + cell(p) + " |");
            }
        }
        List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden() && !o.inherited()).toList();
        if (!options.isEmpty()) {
            line("");
            line("| Option | Description |");
            line("| --- | --- |");
            for (OptionSpec o : options) {
                String names = String.join(", ", o.names());
                String value = o.arity().max() > 0 ? " " + o.paramLabel() : "";
                String variable = environment.get(o.longestName());
                line("| `" + (names + value).replace("|", "\\|") + "` | " + cell(o)
                        + (variable == null ? "" : " Environment: `" + variable + "`.") + " |");
            }
        }
        for (Map.Entry<String, CommandLine> sub : spec.subcommands().entrySet()) {
            line("");
            line("## " + spec.qualifiedName() + " " + sub.getKey());
            command(sub.getValue().getCommandSpec());
        }
    }

    private static String cell(ArgSpec arg) {
        return text(String.join(" ", arg.renderedDescription())).replace("|", "\\|");
    }

    /** Help text as Markdown text: what looks like a tag, such as {@code <host>}, is shown as written. */
    private static String text(String help) {
        return help.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").strip();
    }

    /** Each line of help text as a paragraph of its own, as --help shows them on lines of their own. */
    private void paragraphs(String[] help) {
        for (String l : help) {
            String p = text(String.format(l));
            if (!p.isEmpty()) {
                line("");
                line(p);
            }
        }
    }

    private void line(String s) {
        out.append(s).append('\n');
    }
}
