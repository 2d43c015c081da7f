package org.salgate.codec.xml;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;

/**
 * The {@code xml} document, read with a StAX pull parser instead of Jackson's tree reader (the
 * mobile study's parser comparison). Writes exactly what {@code xml} writes. DTDs and external
 * entities are off.
 */
public final class StaxXmlCodec implements Codec {

    public static final String NAME = "xml-stax";

    private final XmlCodec writer = new XmlCodec();
    private final XMLInputFactory factory;

    public StaxXmlCodec() {
        factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Message message) {
        return writer.encode(message);
    }

    @Override
    public Message decode(byte[] bytes, int offset, int length) throws CodecException {
        Deque<ElementTree> open = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        ElementTree root = new ElementTree();
        try {
            XMLStreamReader r = factory.createXMLStreamReader(new ByteArrayInputStream(bytes, offset, length));
            try {
                while (r.hasNext()) {
                    switch (r.next()) {
                        case XMLStreamConstants.START_ELEMENT -> {
                            if (open.size() >= ElementTree.MAX_DEPTH) {
                                throw new CodecException("not a valid xml message: elements nest deeper than "
                                        + ElementTree.MAX_DEPTH);
                            }
                            open.push(new ElementTree());
                            names.push(r.getLocalName());
                        }
                        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                            if (!open.isEmpty()) {
                                open.peek().text(r.getText());
                            }
                        }
                        case XMLStreamConstants.END_ELEMENT -> {
                            ElementTree done = open.pop();
                            String name = names.pop();
                            (open.isEmpty() ? root : open.peek()).child(name, done.toNode());
                        }
                        default -> { }
                    }
                }
            } finally {
                r.close();
            }
        } catch (XMLStreamException | RuntimeException e) {
            throw new CodecException("not a valid xml message: " + e.getMessage(), e);
        }
        return MessageTree.read(XmlDocuments.rootOf(root));
    }

    @Override
    public String toString() {
        return NAME;
    }
}
