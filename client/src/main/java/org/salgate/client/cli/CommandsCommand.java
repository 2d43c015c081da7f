package org.salgate.client.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import org.salgate.client.Counts;
import org.salgate.client.SalClient;
import org.salgate.sensorml.Argument;
import org.salgate.sensorml.Cml;
import org.salgate.sensorml.CommandDescription;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "commands", description = "List a sensor's commands, their arguments and stream bounds.")
final class CommandsCommand extends BaseCommand {

    @Parameters(index = "0", paramLabel = "<sensor>", description = "The sensor id.")
    String sensor;

    @Option(names = "--xml", description = "Print the CML document instead of a table.")
    boolean xml;

    @Mixin
    OutputOption output;

    static final List<String> COLUMNS = List.of("id", "arguments", "responseType", "responseUnit", "minIntervalMs",
            "maxIntervalMs", "description");

    @Override
    int run(SalClient client) throws Exception {
        String document = await(client.listCommandsXml(sensor));
        if (xml) {
            out().println(document);
            return ExitCodes.OK;
        }
        List<CommandDescription> commands;
        try {
            commands = Cml.read(document);
        } catch (UnsupportedOperationException e) {
            err().println("this build cannot parse CML yet; printing the document");
            out().println(document);
            return ExitCodes.OK;
        }
        switch (output.format()) {
            case json -> Output.jsonDocument(out(), commands.stream().map(c -> record(c, true)).toList());
            case csv -> Output.csv(out(), COLUMNS, commands.stream().map(c -> record(c, false)).toList());
            case table -> print(commands, out());
        }
        return ExitCodes.OK;
    }

    /** A command; its arguments a list of objects for JSON, or the table's text for CSV. */
    static Map<String, Object> record(CommandDescription c, boolean structured) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", c.id());
        if (structured) {
            List<Map<String, Object>> args = new ArrayList<>();
            for (Argument a : c.arguments()) {
                Map<String, Object> am = new LinkedHashMap<>();
                am.put("name", a.name());
                am.put("type", a.type().name().toLowerCase(java.util.Locale.ROOT));
                am.put("min", a.min());
                am.put("max", a.max());
                am.put("default", a.defaultValue());
                am.put("optional", a.optional());
                args.add(am);
            }
            m.put("arguments", args);
        } else {
            m.put("arguments", c.arguments().isEmpty() ? "" : arguments(c.arguments()));
        }
        m.put("responseType", c.responseType());
        m.put("responseUnit", c.responseUnit().isEmpty() ? null : c.responseUnit());
        m.put("minIntervalMs", c.streamable() ? c.streaming().minIntervalMs() : null);
        m.put("maxIntervalMs", c.streamable() ? c.streaming().maxIntervalMs() : null);
        m.put("description", c.shortDescription());
        return m;
    }

    static void print(List<CommandDescription> commands, PrintWriter out) {
        Table table = new Table("COMMAND", "ARGUMENTS", "RESPONSE", "STREAM", "DESCRIPTION");
        for (CommandDescription c : commands) {
            String response = c.responseType() + (c.responseUnit().isEmpty() ? "" : " [" + c.responseUnit() + "]");
            String stream = c.streamable()
                    ? c.streaming().minIntervalMs() + ".." + c.streaming().maxIntervalMs() + " ms"
                    : "no";
            table.row(c.id(), arguments(c.arguments()), response, stream, c.shortDescription());
        }
        table.print(out);
        out.println(Counts.of(commands.size(), "command"));
    }

    private static String arguments(List<Argument> arguments) {
        if (arguments.isEmpty()) {
            return "-";
        }
        StringJoiner all = new StringJoiner("; ");
        for (Argument a : arguments) {
            StringJoiner about = new StringJoiner(", ", " (", ")");
            String range = "";
            if (a.min() != null || a.max() != null) {
                range = " " + (a.min() == null ? "" : number(a.min())) + ".." + (a.max() == null ? "" : number(a.max()));
            }
            about.add(a.type().name().toLowerCase(java.util.Locale.ROOT) + range);
            if (a.defaultValue() != null) {
                about.add("default " + a.defaultValue());
            }
            if (a.optional()) {
                about.add("optional");
            }
            all.add(a.name() + about);
        }
        return all.toString();
    }

    private static String number(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    @Override
    ErrorMessages.Subject subject() {
        return ErrorMessages.Subject.sensor(sensor);
    }
}
