package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import org.w3c.dom.Element;

/**
 * Reads and writes a sensor's SensorML 2.0 {@code PhysicalComponent}, validated against the
 * official OGC schema (compiled once from the class path, never fetched).
 *
 * <p>How a {@link SensorDescription} maps onto SensorML 2.0:
 * <ul>
 *   <li>{@code id}: {@code gml:identifier} with {@code codeSpace="uniqueID"}; the component's
 *       {@code gml:id} is {@link SensorDescription#gmlId()}.</li>
 *   <li>{@code description}: {@code gml:description}, left out when empty.</li>
 *   <li>{@code protocol} and {@code address}: {@code sml:identification} terms whose definitions are
 *       {@value #PROTOCOL_DEFINITION} and {@value #ADDRESS_DEFINITION}; the address term is left
 *       out when the address is empty. The protocol term is required on read.</li>
 *   <li>{@code sampling}: {@code sml:capabilities name="sampling"} holding two {@code swe:Quantity}
 *       capabilities in milliseconds (UCUM {@code ms}), {@value #MIN_INTERVAL} and
 *       {@value #MAX_INTERVAL}. A document with neither reads as {@link SamplingBounds#ANY}.</li>
 *   <li>{@code outputs}: {@code sml:outputs/sml:OutputList/sml:output name=...}, each holding
 *       {@code swe:Quantity} with {@code swe:uom code=} the UCUM unit (a unit containing ':' is
 *       taken for a unit URI and written as {@code xlink:href}; an empty unit is written as
 *       {@code xlink:href="}{@value #UNKNOWN_UNIT}{@code "} and read back as empty),
 *       {@code swe:Count}, {@code swe:Text}, or, for {@link Output.DataType#BINARY}, a
 *       {@code swe:DataArray} of unsigned-byte {@code swe:Count}s of unspecified length with a raw
 *       {@code swe:BinaryEncoding}. The output's definition is the component's {@code definition}.
 *       Only quantities carry a unit: the unit of another output type is not written.</li>
 * </ul>
 * Output names must be XML NCNames (letters, digits, {@code _ - .}, not starting with a digit).
 * All methods are stateless and thread-safe.
 */
public final class SensorMl {

    /** The SensorML 2.0 namespace. */
    public static final String NAMESPACE = "http://www.opengis.net/sensorml/2.0";
    /** The SWE Common 2.0 namespace. */
    public static final String SWE = "http://www.opengis.net/swe/2.0";
    /** The GML 3.2 namespace. */
    public static final String GML = "http://www.opengis.net/gml/3.2";
    static final String XLINK = "http://www.w3.org/1999/xlink";

    /** The code space of the {@code gml:identifier} that carries the sensor id. */
    public static final String UNIQUE_ID = "uniqueID";
    /** Definition of the identification term naming the protocol that serves the sensor. */
    public static final String PROTOCOL_DEFINITION = "urn:salgate:def:identifier:protocol";
    /** Definition of the identification term carrying the sensor's address within its endpoint. */
    public static final String ADDRESS_DEFINITION = "urn:salgate:def:identifier:address";
    /** Definition of the capability giving the shortest stream interval, in ms. */
    public static final String MIN_INTERVAL = "urn:salgate:def:property:minSamplingInterval";
    /** Definition of the capability giving the longest stream interval, in ms. */
    public static final String MAX_INTERVAL = "urn:salgate:def:property:maxSamplingInterval";
    /** The unit reference written for a quantity without a unit. */
    public static final String UNKNOWN_UNIT = "http://www.opengis.net/def/nil/OGC/0/unknown";
    /** The data type of one byte of a binary output. */
    static final String UNSIGNED_BYTE = "http://www.opengis.net/def/dataType/OGC/0/unsignedByte";

    private static final String MIN_NAME = "minSamplingInterval";
    private static final String MAX_NAME = "maxSamplingInterval";
    private static final String MILLISECONDS = "ms";

    private SensorMl() {}

    /**
     * Compiles the SensorML schema now rather than on the first read (it takes about a second);
     * call it at start-up to keep that off the first request. Safe to call more than once.
     */
    public static void preloadSchema() {
        Schemas.sensorMl();
    }

    /**
     * The SensorML 2.0 document for {@code value}, valid against the official schema.
     *
     * @throws IllegalArgumentException when an output name is not an XML NCName or a quantity's unit
     *         contains white space, which the schema does not allow
     */
    public static String write(SensorDescription value) {
        return document(value).serialize();
    }

    /** The SensorML document for {@code value}, as a DOM; see {@link #write}. */
    static XmlOutput document(SensorDescription value) {
        for (Output o : value.outputs()) {
            checkOutput(o);
        }
        XmlOutput out = XmlOutput.create(NAMESPACE, "sml:PhysicalComponent",
                "sml", NAMESPACE, "swe", SWE, "gml", GML, "xlink", XLINK,
                "xsi", XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI);
        Element root = out.root();
        XmlOutput.attr(root, XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "xsi:schemaLocation",
                NAMESPACE + " " + Schemas.SENSORML_URL);
        XmlOutput.attr(root, GML, "gml:id", value.gmlId());
        if (!value.description().isEmpty()) {
            out.add(root, GML, "gml:description", value.description());
        }
        XmlOutput.attr(out.add(root, GML, "gml:identifier", value.id()), "codeSpace", UNIQUE_ID);

        Element identifiers = out.add(out.add(root, NAMESPACE, "sml:identification"), NAMESPACE, "sml:IdentifierList");
        writeTerm(out, identifiers, PROTOCOL_DEFINITION, "Protocol", value.protocol());
        if (!value.address().isEmpty()) {
            writeTerm(out, identifiers, ADDRESS_DEFINITION, "Address", value.address());
        }

        Element capabilities = out.add(root, NAMESPACE, "sml:capabilities");
        XmlOutput.attr(capabilities, "name", "sampling");
        Element capabilityList = out.add(capabilities, NAMESPACE, "sml:CapabilityList");
        writeInterval(out, capabilityList, MIN_NAME, MIN_INTERVAL, "Shortest stream interval",
                value.sampling().minIntervalMs());
        writeInterval(out, capabilityList, MAX_NAME, MAX_INTERVAL, "Longest stream interval",
                value.sampling().maxIntervalMs());

        if (!value.outputs().isEmpty()) {
            Element outputList = out.add(out.add(root, NAMESPACE, "sml:outputs"), NAMESPACE, "sml:OutputList");
            for (Output o : value.outputs()) {
                Element output = out.add(outputList, NAMESPACE, "sml:output");
                XmlOutput.attr(output, "name", o.name());
                writeComponent(out, output, o);
            }
        }
        return out;
    }

    /**
     * Checks {@code xml} against the official SensorML 2.0 schema only (not what salgate needs on
     * top, which {@link #read} also checks).
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static void validate(String xml) throws DocumentException {
        XmlInput.parse(xml, Schemas.sensorMl(), "SensorML");
    }

    /**
     * Parses {@code xml}, validates it against the official SensorML 2.0 schema, and maps it back;
     * {@code read(write(d))} equals {@code d} (a non-quantity output's unit aside).
     *
     * @throws DocumentException saying what is wrong and where: malformed, schema-invalid, or
     *         missing what salgate needs (a PhysicalComponent with an identifier and a protocol term)
     */
    public static SensorDescription read(String xml) throws DocumentException {
        return map(XmlInput.parse(xml, Schemas.sensorMl(), "SensorML").getDocumentElement());
    }

    /**
     * Maps a schema-valid SensorML element back; see {@link #read(String)}.
     *
     * @throws DocumentException when it is not what salgate needs, located at the element at fault
     */
    static SensorDescription map(Element root) throws DocumentException {
        if (!NAMESPACE.equals(root.getNamespaceURI()) || !"PhysicalComponent".equals(root.getLocalName())) {
            throw XmlInput.at(root, "salgate describes a sensor as one sml:PhysicalComponent, not "
                    + root.getTagName() + "; send a PhysicalComponent document");
        }
        Element identifier = Dom.child(root, GML, "identifier");
        if (identifier == null || identifier.getTextContent().isBlank()) {
            throw XmlInput.at(identifier == null ? root : identifier, "the sensor has no id; add <gml:identifier"
                    + " codeSpace=\"" + UNIQUE_ID + "\">the sensor id</gml:identifier> after gml:description");
        }
        String id = identifier.getTextContent().strip();
        String description = Dom.childText(root, GML, "description", "");
        Element protocolTerm = term(root, PROTOCOL_DEFINITION);
        if (protocolTerm == null) {
            throw XmlInput.at(root, "the sensor has no protocol; add an sml:identification term with definition \""
                    + PROTOCOL_DEFINITION + "\" whose value names the protocol that serves it");
        }
        String protocol = Dom.childText(protocolTerm, NAMESPACE, "value", "").strip();
        Element addressTerm = term(root, ADDRESS_DEFINITION);
        String address = addressTerm == null ? "" : Dom.childText(addressTerm, NAMESPACE, "value", "").strip();
        SamplingBounds sampling = readSampling(root);
        List<Output> outputs = readOutputs(root);
        try {
            return new SensorDescription(id, description, protocol, address, outputs, sampling);
        } catch (IllegalArgumentException e) {
            throw XmlInput.at(root, e.getMessage());
        }
    }

    private static void writeTerm(XmlOutput out, Element list, String definition, String label, String value) {
        Element term = out.add(out.add(list, NAMESPACE, "sml:identifier"), NAMESPACE, "sml:Term");
        XmlOutput.attr(term, "definition", definition);
        out.add(term, NAMESPACE, "sml:label", label);
        out.add(term, NAMESPACE, "sml:value", value);
    }

    private static void writeInterval(XmlOutput out, Element list, String name, String definition, String label,
                                      long ms) {
        Element capability = out.add(list, NAMESPACE, "sml:capability");
        XmlOutput.attr(capability, "name", name);
        Element quantity = out.add(capability, SWE, "swe:Quantity");
        XmlOutput.attr(quantity, "definition", definition);
        out.add(quantity, SWE, "swe:label", label);
        XmlOutput.attr(out.add(quantity, SWE, "swe:uom"), "code", MILLISECONDS);
        out.add(quantity, SWE, "swe:value", Long.toString(ms));
    }

    private static void writeComponent(XmlOutput out, Element output, Output o) {
        switch (o.type()) {
            case QUANTITY -> {
                Element quantity = component(out, output, "swe:Quantity", o.definition());
                Element uom = out.add(quantity, SWE, "swe:uom");
                if (o.unit().isEmpty()) {
                    XmlOutput.attr(uom, XLINK, "xlink:href", UNKNOWN_UNIT);
                } else if (o.unit().indexOf(':') < 0) {
                    XmlOutput.attr(uom, "code", o.unit());
                } else {
                    XmlOutput.attr(uom, XLINK, "xlink:href", o.unit());
                }
            }
            case COUNT -> component(out, output, "swe:Count", o.definition());
            case TEXT -> component(out, output, "swe:Text", o.definition());
            case BINARY -> {
                Element array = component(out, output, "swe:DataArray", o.definition());
                out.add(out.add(array, SWE, "swe:elementCount"), SWE, "swe:Count");
                Element elementType = out.add(array, SWE, "swe:elementType");
                XmlOutput.attr(elementType, "name", "byte");
                XmlOutput.attr(out.add(elementType, SWE, "swe:Count"), "definition", UNSIGNED_BYTE);
                Element encoding = out.add(out.add(array, SWE, "swe:encoding"), SWE, "swe:BinaryEncoding");
                XmlOutput.attr(encoding, "byteOrder", "bigEndian");
                XmlOutput.attr(encoding, "byteEncoding", "raw");
                Element member = out.add(out.add(encoding, SWE, "swe:member"), SWE, "swe:Component");
                XmlOutput.attr(member, "ref", o.name() + "/byte");
                XmlOutput.attr(member, "dataType", UNSIGNED_BYTE);
            }
            default -> throw new IllegalArgumentException("unknown output type " + o.type());
        }
    }

    private static void checkOutput(Output o) {
        if (!isNcName(o.name())) {
            throw new IllegalArgumentException("output name \"" + o.name() + "\" is not an XML NCName;"
                    + " use letters, digits, '_', '-' and '.', starting with a letter or '_'");
        }
        if (o.type() == Output.DataType.QUANTITY && o.unit().chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("unit \"" + o.unit() + "\" of output " + o.name()
                    + " contains white space; use a UCUM code such as m/s2 or a unit URI");
        }
    }

    static boolean isNcName(String s) {
        if (s.isEmpty()) {
            return false;
        }
        char first = s.charAt(0);
        if (!(Character.isLetter(first) || first == '_')) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    /** A quantity's unit: its UCUM code, its unit URI, or empty for none or {@link #UNKNOWN_UNIT}. */
    private static String unit(Element uom) {
        if (uom == null) {
            return "";
        }
        String code = Dom.attr(uom, "code");
        if (code != null) {
            return code.strip();
        }
        String href = uom.hasAttributeNS(XLINK, "href") ? uom.getAttributeNS(XLINK, "href").strip() : "";
        return UNKNOWN_UNIT.equals(href) ? "" : href;
    }

    private static Element component(XmlOutput out, Element parent, String qName, String definition) {
        Element c = out.add(parent, SWE, qName);
        if (!definition.isEmpty()) {
            XmlOutput.attr(c, "definition", definition);
        }
        return c;
    }

    /** The first identification term with {@code definition}, or null. */
    private static Element term(Element root, String definition) {
        for (Element identification : Dom.children(root, NAMESPACE, "identification")) {
            Element list = Dom.child(identification, NAMESPACE, "IdentifierList");
            if (list == null) {
                continue;
            }
            for (Element identifier : Dom.children(list, NAMESPACE, "identifier")) {
                Element term = Dom.child(identifier, NAMESPACE, "Term");
                if (term != null && definition.equals(Dom.attr(term, "definition"))) {
                    return term;
                }
            }
        }
        return null;
    }

    private static SamplingBounds readSampling(Element root) throws DocumentException {
        Element min = null;
        Element max = null;
        for (Element capabilities : Dom.children(root, NAMESPACE, "capabilities")) {
            Element list = Dom.child(capabilities, NAMESPACE, "CapabilityList");
            if (list == null) {
                continue;
            }
            for (Element capability : Dom.children(list, NAMESPACE, "capability")) {
                Element quantity = Dom.child(capability, SWE, "Quantity");
                String definition = quantity == null ? null : Dom.attr(quantity, "definition");
                if (MIN_INTERVAL.equals(definition) && min == null) {
                    min = quantity;
                } else if (MAX_INTERVAL.equals(definition) && max == null) {
                    max = quantity;
                }
            }
        }
        if (min == null && max == null) {
            return SamplingBounds.ANY;
        }
        if (min == null || max == null) {
            throw XmlInput.at(min == null ? max : min, "the sampling bounds need both capabilities, "
                    + MIN_INTERVAL + " and " + MAX_INTERVAL + "; add the missing one");
        }
        long minMs = milliseconds(min);
        long maxMs = milliseconds(max);
        if (maxMs < minMs) {
            throw XmlInput.at(max, "the longest stream interval " + maxMs + " ms is shorter than the shortest "
                    + minMs + " ms; swap them");
        }
        return new SamplingBounds(minMs, maxMs);
    }

    private static long milliseconds(Element quantity) throws DocumentException {
        Element uom = Dom.child(quantity, SWE, "uom");
        String code = uom == null ? null : Dom.attr(uom, "code");
        if (!MILLISECONDS.equals(code)) {
            throw XmlInput.at(quantity, "a stream interval must be in milliseconds; use <swe:uom code=\"ms\"/>");
        }
        Element value = Dom.child(quantity, SWE, "value");
        if (value == null) {
            throw XmlInput.at(quantity, "the stream interval has no swe:value; add one in milliseconds");
        }
        double ms = Double.parseDouble(value.getTextContent().strip()); // the schema checked it is an xs:double
        if (!(ms >= 0) || ms > Long.MAX_VALUE || ms != Math.rint(ms)) {
            throw XmlInput.at(value, "a stream interval must be a whole, non-negative number of milliseconds, not "
                    + value.getTextContent().strip());
        }
        return (long) ms;
    }

    private static List<Output> readOutputs(Element root) throws DocumentException {
        List<Output> outputs = new ArrayList<>();
        Element outputsElement = Dom.child(root, NAMESPACE, "outputs");
        Element list = outputsElement == null ? null : Dom.child(outputsElement, NAMESPACE, "OutputList");
        if (list == null) {
            return outputs;
        }
        for (Element output : Dom.children(list, NAMESPACE, "output")) {
            outputs.add(readOutput(output));
        }
        return outputs;
    }

    private static Output readOutput(Element output) throws DocumentException {
        String name = output.getAttributeNS(null, "name");
        Element c = Dom.firstElement(output);
        if (c == null || !SWE.equals(c.getNamespaceURI())) {
            throw XmlInput.at(output, "output " + name + " must hold its data component inline;"
                    + " salgate reads swe:Quantity, swe:Count, swe:Text and swe:DataArray (binary)");
        }
        String definition = Dom.attr(c, "definition");
        definition = definition == null ? "" : definition;
        return switch (c.getLocalName()) {
            case "Quantity" -> {
                yield new Output(name, definition, Output.DataType.QUANTITY, unit(Dom.child(c, SWE, "uom")));
            }
            case "Count" -> new Output(name, definition, Output.DataType.COUNT, "");
            case "Text" -> new Output(name, definition, Output.DataType.TEXT, "");
            case "DataArray" -> new Output(name, definition, Output.DataType.BINARY, "");
            default -> throw XmlInput.at(c, "output " + name + " is a " + c.getTagName()
                    + ", which salgate cannot map; use swe:Quantity, swe:Count, swe:Text or swe:DataArray (binary)");
        };
    }
}
