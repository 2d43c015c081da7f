package org.salgate.codec.xml;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import org.salgate.wire.CodecException;

/** Helpers shared by the XML readers. */
final class XmlDocuments {

    private XmlDocuments() {}

    /** The content of the single root element collected under {@code holder}. */
    static JsonNode rootOf(ElementTree holder) throws CodecException {
        JsonNode wrapped = holder.toNode();
        Iterator<JsonNode> roots = wrapped.elements();
        if (!wrapped.isObject() || wrapped.size() != 1) {
            throw new CodecException("not a valid xml message: expected one root element");
        }
        JsonNode root = roots.next();
        if (root.isArray()) {
            throw new CodecException("not a valid xml message: expected one root element");
        }
        return root;
    }
}
