package org.salgate.codec.xml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.salgate.wire.CodecException;

/**
 * Builds the message tree from XML elements the way Jackson XML reads it: an element with child
 * elements is an object (a repeated child name becomes an array), an element without any is its
 * text. Used by the StAX and DOM codecs, so they read the same document as {@code xml}.
 */
final class ElementTree {

    /** The deepest element nesting accepted; messages nest far less. */
    static final int MAX_DEPTH = 64;

    private final Map<String, List<JsonNode>> children = new LinkedHashMap<>();
    private final StringBuilder text = new StringBuilder();

    void text(String chars) {
        text.append(chars);
    }

    void child(String name, JsonNode node) {
        children.computeIfAbsent(name, n -> new ArrayList<>(1)).add(node);
    }

    JsonNode toNode() throws CodecException {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (children.isEmpty()) {
            return f.textNode(text.toString());
        }
        if (!text.toString().isBlank()) {
            throw new CodecException("not a valid xml message: an element mixes text and child elements");
        }
        ObjectNode o = f.objectNode();
        for (Map.Entry<String, List<JsonNode>> c : children.entrySet()) {
            if (c.getValue().size() == 1) {
                o.set(c.getKey(), c.getValue().get(0));
            } else {
                ArrayNode a = o.putArray(c.getKey());
                c.getValue().forEach(a::add);
            }
        }
        return o;
    }
}
