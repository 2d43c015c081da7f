package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.w3c.dom.Element;

/**
 * Reads and writes a platform configuration (PCML 1.0, namespace {@value #NAMESPACE}, schema
 * {@code org/salgate/sensorml/pcml-1.0.xsd} on the class path):
 * <pre>{@code
 * <platform xmlns="urn:salgate:pcml:1.0">
 *   <protocol name="dummy" type="dummy" endpoint="virtual">
 *     <parameter name="sensors" value="20"/>
 *   </protocol>
 * </platform>
 * }</pre>
 * Protocol names are unique in a document, parameter names unique in a protocol; parameters are
 * written sorted by name. All methods are stateless and thread-safe.
 */
public final class Pcml {

    /** The PCML 1.0 namespace. */
    public static final String NAMESPACE = "urn:salgate:pcml:1.0";

    private Pcml() {}

    /** The PCML document for {@code value}. */
    public static String write(PlatformConfig value) {
        XmlOutput out = XmlOutput.create(NAMESPACE, "platform", "", NAMESPACE);
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
        List<ProtocolConfig> protocols = new ArrayList<>();
        for (Element protocol : Dom.children(root, NAMESPACE, "protocol")) {
            Map<String, String> parameters = new LinkedHashMap<>();
            for (Element parameter : Dom.children(protocol, NAMESPACE, "parameter")) {
                parameters.put(parameter.getAttributeNS(null, "name").strip(), parameter.getAttributeNS(null, "value"));
            }
            try {
                protocols.add(new ProtocolConfig(
                        protocol.getAttributeNS(null, "name").strip(),
                        protocol.getAttributeNS(null, "type").strip(),
                        protocol.getAttributeNS(null, "endpoint").strip(),
                        parameters));
            } catch (IllegalArgumentException e) {
                throw XmlInput.at(protocol, e.getMessage());
            }
        }
        return new PlatformConfig(protocols);
    }
}
