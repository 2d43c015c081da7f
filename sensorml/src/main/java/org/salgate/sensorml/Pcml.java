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
 * ({@link ProtocolConfig#removedSensors()}). Protocol names are unique in a document, parameter
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
                        parameters, added, removed));
            } catch (IllegalArgumentException e) {
                throw XmlInput.at(protocol, e.getMessage());
            }
        }
        return new PlatformConfig(protocols);
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
