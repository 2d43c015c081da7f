package org.salgate.codec.xml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.xml.XmlFactory;
import com.fasterxml.jackson.dataformat.xml.XmlMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.salgate.codec.TreeCodec;
import org.salgate.codec.tree.MessageTree;

/**
 * Messages as XML documents (Jackson XML); bytes are base64 text. Text that XML 1.0 cannot carry
 * exactly (control characters, carriage returns, leading or trailing blanks) is sent as an
 * {@code <x64>} element holding the base64 of its UTF-8 bytes.
 */
public final class XmlCodec extends TreeCodec {

    public static final String NAME = "xml";

    public XmlCodec() {
        super(NAME, new XmlMapper(XmlFactory.builder().streamReadConstraints(LIMITS).build()));
    }

    @Override
    protected JsonNode beforeWrite(JsonNode tree) {
        escape(tree);
        return tree;
    }

    private static void escape(JsonNode node) {
        if (node.isArray()) {
            node.forEach(XmlCodec::escape);
        } else if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
            fields.addAll(o.properties());
            for (Map.Entry<String, JsonNode> f : fields) {
                JsonNode v = f.getValue();
                if (v.isTextual() && !carriesExactly(v.textValue())) {
                    o.putObject(f.getKey()).put(MessageTree.ESCAPED,
                            Base64.getEncoder().encodeToString(v.textValue().getBytes(StandardCharsets.UTF_8)));
                } else {
                    escape(v);
                }
            }
        }
    }

    /** Whether XML text keeps {@code s} unchanged through a write and a read. */
    static boolean carriesExactly(String s) {
        if (!s.isEmpty() && (Character.isWhitespace(s.charAt(0)) || Character.isWhitespace(s.charAt(s.length() - 1)))) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '\t' || c == '\n' || (c >= 0x20 && c < 0xD800) || (c >= 0xE000 && c <= 0xFFFD);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
                ok = true;
            }
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
