package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.w3c.dom.Element;

/**
 * Reads and writes a platform configuration (PCML 1.0, namespace {@value #NAMESPACE}, schema
 * {@code org/salgate/sensorml/pcml-1.0.xsd} on the class path):
 * <pre>{@code
 * <platform xmlns="urn:salgate:pcml:1.0">
 *   <protocol name="dummy" type="dummy" endpoint="virtual">
 *     <parameter name="sensors" value="20"/>
 *     <channel name="voltage" unit="V" scale="0.1" access="read">
 *       <attribute name="address" value="0"/>
 *     </channel>
 *     <sensor>
 *       <sml:PhysicalComponent xmlns:sml="http://www.opengis.net/sensorml/2.0" ...>...</sml:PhysicalComponent>
 *     </sensor>
 *     <removedSensor id="DUMMY_3"/>
 *   </protocol>
 * </platform>
 * }</pre>
 * A protocol's {@code <sensor>}s hold the SensorML 2.0 of the sensors added to it at run time
 * ({@link ProtocolConfig#addedSensors()}), validated against the official schema and mapped as
 * {@link SensorMl} maps them; its {@code <removedSensor>}s name the sensors removed
 * ({@link ProtocolConfig#removedSensors()}); its {@code <channel>}s are a device's values
 * ({@link ProtocolConfig#channels()}, {@link ChannelConfig}). Protocol names are unique in a document, parameter
 * names unique in a protocol; parameters are written sorted by name, sensors in their order. All
 * methods are stateless and thread-safe.
 */
public final class Pcml {

    /** The PCML 1.0 namespace. */
    public static final String NAMESPACE = "urn:salgate:pcml:1.0";

    private Pcml() {}

    /**
     * The PCML document for {@code value}.
     *
     * @throws IllegalArgumentException when an added sensor cannot be written as SensorML (see
     *         {@link SensorMl#write})
     */
    public static String write(PlatformConfig value) {
        XmlOutput out = XmlOutput.create(NAMESPACE, "platform", "", NAMESPACE);
        Set<String> gmlIds = new HashSet<>();
        for (ProtocolConfig p : value.protocols()) {
            Element protocol = out.add(out.root(), NAMESPACE, "protocol");
            XmlOutput.attr(protocol, "name", p.name());
            XmlOutput.attr(protocol, "type", p.type());
            XmlOutput.attr(protocol, "endpoint", p.endpoint());
            for (Map.Entry<String, String> e : new TreeMap<>(p.parameters()).entrySet()) {
                Element parameter = out.add(protocol, NAMESPACE, "parameter");
                XmlOutput.attr(parameter, "name", e.getKey());
                XmlOutput.attr(parameter, "value", e.getValue());
            }
            for (ChannelConfig c : p.channels()) {
                writeChannel(out, out.add(protocol, NAMESPACE, "channel"), c);
            }
            for (SensorDescription d : p.addedSensors()) {
                Element component = out.addCopy(out.add(protocol, NAMESPACE, "sensor"), SensorMl.document(d).root());
                XmlOutput.attr(component, SensorMl.GML, "gml:id", unique(d.gmlId(), gmlIds));
            }
            for (String id : p.removedSensors()) {
                XmlOutput.attr(out.add(protocol, NAMESPACE, "removedSensor"), "id", id);
            }
        }
        return out.serialize();
    }

    /**
     * Parses and validates a PCML document.
     *
     * @throws DocumentException saying what is wrong and where
     */
    public static PlatformConfig read(String xml) throws DocumentException {
        Element root = XmlInput.parse(xml, Schemas.pcml(), "PCML").getDocumentElement();
        if (!NAMESPACE.equals(root.getNamespaceURI()) || !"platform".equals(root.getLocalName())) {
            // the schema also declares the SensorML elements a <sensor> holds
            throw XmlInput.at(root, "a platform configuration is a <platform xmlns=\"" + NAMESPACE + "\">, not "
                    + root.getTagName() + "; send a PCML document");
        }
        List<ProtocolConfig> protocols = new ArrayList<>();
        for (Element protocol : Dom.children(root, NAMESPACE, "protocol")) {
            Map<String, String> parameters = new LinkedHashMap<>();
            for (Element parameter : Dom.children(protocol, NAMESPACE, "parameter")) {
                parameters.put(parameter.getAttributeNS(null, "name").strip(), parameter.getAttributeNS(null, "value"));
            }
            List<ChannelConfig> channels = new ArrayList<>();
            for (Element channel : Dom.children(protocol, NAMESPACE, "channel")) {
                channels.add(readChannel(channel));
            }
            List<SensorDescription> added = new ArrayList<>();
            for (Element sensor : Dom.children(protocol, NAMESPACE, "sensor")) {
                added.add(SensorMl.map(Dom.firstElement(sensor)));
            }
            List<String> removed = new ArrayList<>();
            for (Element sensor : Dom.children(protocol, NAMESPACE, "removedSensor")) {
                removed.add(sensor.getAttributeNS(null, "id").strip());
            }
            try {
                protocols.add(new ProtocolConfig(
                        protocol.getAttributeNS(null, "name").strip(),
                        protocol.getAttributeNS(null, "type").strip(),
                        protocol.getAttributeNS(null, "endpoint").strip(),
                        parameters, added, removed, channels));
            } catch (IllegalArgumentException e) {
                throw XmlInput.at(protocol, e.getMessage());
            }
        }
        return new PlatformConfig(protocols);
    }

    private static void writeChannel(XmlOutput out, Element element, ChannelConfig c) {
        XmlOutput.attr(element, "name", c.name());
        if (!c.description().isEmpty()) {
            XmlOutput.attr(element, "description", c.description());
        }
        if (!c.unit().isEmpty()) {
            XmlOutput.attr(element, "unit", c.unit());
        }
        if (c.scale() != 1) {
            XmlOutput.attr(element, "scale", Double.toString(c.scale()));
        }
        if (c.offset() != 0) {
            XmlOutput.attr(element, "offset", Double.toString(c.offset()));
        }
        XmlOutput.attr(element, "access", c.access().word());
        if (c.min() != null) {
            XmlOutput.attr(element, "min", Double.toString(c.min()));
        }
        if (c.max() != null) {
            XmlOutput.attr(element, "max", Double.toString(c.max()));
        }
        for (Map.Entry<String, String> e : new TreeMap<>(c.attributes()).entrySet()) {
            Element attribute = out.add(element, NAMESPACE, "attribute");
            XmlOutput.attr(attribute, "name", e.getKey());
            XmlOutput.attr(attribute, "value", e.getValue());
        }
    }

    /** A {@code <channel>} the schema accepted; what only the record checks is reported at the element. */
    private static ChannelConfig readChannel(Element channel) throws DocumentException {
        Map<String, String> attributes = new LinkedHashMap<>();
        for (Element attribute : Dom.children(channel, NAMESPACE, "attribute")) {
            attributes.put(attribute.getAttributeNS(null, "name").strip(), attribute.getAttributeNS(null, "value"));
        }
        try {
            return new ChannelConfig(channel.getAttributeNS(null, "name"),
                    channel.getAttributeNS(null, "description"),
                    channel.getAttributeNS(null, "unit").strip(),
                    number(channel, "scale", 1), number(channel, "offset", 0),
                    ChannelConfig.Access.of(text(channel, "access", "read")),
                    bound(channel, "min"), bound(channel, "max"), attributes);
        } catch (IllegalArgumentException e) {
            throw XmlInput.at(channel, e.getMessage());
        }
    }

    private static String text(Element e, String attribute, String fallback) {
        return e.hasAttributeNS(null, attribute) ? e.getAttributeNS(null, attribute).strip() : fallback;
    }

    private static double number(Element e, String attribute, double fallback) {
        return e.hasAttributeNS(null, attribute) ? Double.parseDouble(e.getAttributeNS(null, attribute).strip()) : fallback;
    }

    private static Double bound(Element e, String attribute) {
        return e.hasAttributeNS(null, attribute) ? Double.valueOf(e.getAttributeNS(null, attribute).strip()) : null;
    }

    /**
     * {@code gmlId}, or it with a suffix when another sensor of the document has it already: gml:ids
     * are unique in a document, and two sensor ids can make the same one.
     */
    private static String unique(String gmlId, Set<String> taken) {
        String id = gmlId;
        for (int n = 2; !taken.add(id); n++) {
            id = gmlId + "-" + n;
        }
        return id;
    }
}
