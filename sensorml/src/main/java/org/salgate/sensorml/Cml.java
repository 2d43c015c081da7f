package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.w3c.dom.Element;

/**
 * Reads and writes a sensor's command list (CML 1.0, namespace {@value #NAMESPACE}, schema
 * {@code org/salgate/sensorml/cml-1.0.xsd} on the class path):
 * <pre>{@code
 * <commands xmlns="urn:salgate:cml:1.0" sensor="DUMMY_0">
 *   <command id="payload">
 *     <name>Payload</name>
 *     <shortDescription>...</shortDescription>
 *     <longDescription>...</longDescription>
 *     <arguments>
 *       <argument name="size" type="integer" min="0" max="16777216" default="64" optional="true">
 *         <description>...</description>
 *       </argument>
 *     </arguments>
 *     <response type="bytes" unit="By"/>
 *     <streaming minIntervalMs="0" maxIntervalMs="86400000"/>
 *   </command>
 * </commands>
 * }</pre>
 * Empty descriptions and units are left out; a command without {@code streaming} cannot be
 * streamed. Command ids are unique in a document, argument names unique in a command. All methods
 * are stateless and thread-safe.
 */
public final class Cml {

    /** The CML 1.0 namespace. */
    public static final String NAMESPACE = "urn:salgate:cml:1.0";

    private Cml() {}

    /** The CML document listing {@code value}, not naming its sensor. */
    public static String write(List<CommandDescription> value) {
        return write(null, value);
    }

    /** The CML document listing the commands of sensor {@code sensorId} (left out when null or blank). */
    public static String write(String sensorId, List<CommandDescription> commands) {
        XmlOutput out = XmlOutput.create(NAMESPACE, "commands", "", NAMESPACE);
        Element root = out.root();
        if (sensorId != null && !sensorId.isBlank()) {
            XmlOutput.attr(root, "sensor", sensorId);
        }
        for (CommandDescription c : commands) {
            Element command = out.add(root, NAMESPACE, "command");
            XmlOutput.attr(command, "id", c.id());
            out.add(command, NAMESPACE, "name", c.name());
            if (!c.shortDescription().isEmpty()) {
                out.add(command, NAMESPACE, "shortDescription", c.shortDescription());
            }
            if (!c.longDescription().isEmpty()) {
                out.add(command, NAMESPACE, "longDescription", c.longDescription());
            }
            if (!c.arguments().isEmpty()) {
                Element arguments = out.add(command, NAMESPACE, "arguments");
                for (Argument a : c.arguments()) {
                    writeArgument(out, arguments, a);
                }
            }
            Element response = out.add(command, NAMESPACE, "response");
            XmlOutput.attr(response, "type", c.responseType());
            if (!c.responseUnit().isEmpty()) {
                XmlOutput.attr(response, "unit", c.responseUnit());
            }
            if (c.streaming() != null) {
                Element streaming = out.add(command, NAMESPACE, "streaming");
                XmlOutput.attr(streaming, "minIntervalMs", Long.toString(c.streaming().minIntervalMs()));
                XmlOutput.attr(streaming, "maxIntervalMs", Long.toString(c.streaming().maxIntervalMs()));
            }
        }
        return out.serialize();
    }

    /**
     * Parses and validates a CML document.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static List<CommandDescription> read(String xml) throws DocumentException {
        return readDocument(xml).commands();
    }

    /**
     * Parses and validates a CML document, keeping the sensor id it names.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static CommandList readDocument(String xml) throws DocumentException {
        Element root = XmlInput.parse(xml, Schemas.cml(), "CML").getDocumentElement();
        List<CommandDescription> commands = new ArrayList<>();
        for (Element command : Dom.children(root, NAMESPACE, "command")) {
            commands.add(readCommand(command));
        }
        String sensor = Dom.attr(root, "sensor");
        return new CommandList(sensor == null ? "" : sensor.strip(), commands);
    }

    private static void writeArgument(XmlOutput out, Element arguments, Argument a) {
        Element argument = out.add(arguments, NAMESPACE, "argument");
        XmlOutput.attr(argument, "name", a.name());
        XmlOutput.attr(argument, "type", a.type().name().toLowerCase(Locale.ROOT));
        if (a.min() != null) {
            XmlOutput.attr(argument, "min", Numbers.format(a.min()));
        }
        if (a.max() != null) {
            XmlOutput.attr(argument, "max", Numbers.format(a.max()));
        }
        if (a.defaultValue() != null) {
            XmlOutput.attr(argument, "default", a.defaultValue());
        }
        if (a.optional()) {
            XmlOutput.attr(argument, "optional", "true");
        }
        if (!a.description().isEmpty()) {
            out.add(argument, NAMESPACE, "description", a.description());
        }
    }

    private static CommandDescription readCommand(Element command) throws DocumentException {
        List<Argument> arguments = new ArrayList<>();
        Element argumentsElement = Dom.child(command, NAMESPACE, "arguments");
        if (argumentsElement != null) {
            for (Element argument : Dom.children(argumentsElement, NAMESPACE, "argument")) {
                arguments.add(readArgument(argument));
            }
        }
        Element response = Dom.child(command, NAMESPACE, "response");
        Element streaming = Dom.child(command, NAMESPACE, "streaming");
        SamplingBounds bounds = null;
        if (streaming != null) {
            long min = Long.parseLong(Dom.attr(streaming, "minIntervalMs").strip());
            long max = Long.parseLong(Dom.attr(streaming, "maxIntervalMs").strip());
            if (max < min) {
                throw XmlInput.at(streaming, "maxIntervalMs " + max + " is less than minIntervalMs " + min
                        + "; swap them");
            }
            bounds = new SamplingBounds(min, max);
        }
        String unit = Dom.attr(response, "unit");
        return new CommandDescription(
                command.getAttributeNS(null, "id").strip(),
                Dom.childText(command, NAMESPACE, "name", null),
                Dom.childText(command, NAMESPACE, "shortDescription", ""),
                Dom.childText(command, NAMESPACE, "longDescription", ""),
                arguments,
                response.getAttributeNS(null, "type").strip(),
                unit == null ? "" : unit.strip(),
                bounds);
    }

    private static Argument readArgument(Element argument) throws DocumentException {
        String name = argument.getAttributeNS(null, "name").strip();
        Argument.Type type = Argument.Type.valueOf(argument.getAttributeNS(null, "type").strip().toUpperCase(Locale.ROOT));
        Double min = Numbers.parseOrNull(Dom.attr(argument, "min"));
        Double max = Numbers.parseOrNull(Dom.attr(argument, "max"));
        String optional = Dom.attr(argument, "optional");
        String defaultValue = Dom.attr(argument, "default");
        if (min != null && max != null && min > max) {
            throw XmlInput.at(argument, "argument " + name + " has min " + Numbers.format(min) + " above max "
                    + Numbers.format(max) + "; swap them");
        }
        if (defaultValue != null) {
            String problem = Numbers.checkValue(type, min, max, defaultValue);
            if (problem != null) {
                throw XmlInput.at(argument, "the default of argument " + name + " " + problem);
            }
        }
        return new Argument(name, type, min, max, defaultValue,
                optional != null && ("true".equals(optional.strip()) || "1".equals(optional.strip())),
                Dom.childText(argument, NAMESPACE, "description", ""));
    }
}
