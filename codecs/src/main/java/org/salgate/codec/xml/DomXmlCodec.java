package org.salgate.codec.xml;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.salgate.codec.tree.MessageTree;
import org.salgate.wire.Codec;
import org.salgate.wire.CodecException;
import org.salgate.wire.Message;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The {@code xml} document, read into a DOM first instead of Jackson's tree reader (the mobile
 * study's parser comparison). Writes exactly what {@code xml} writes. DOCTYPEs are refused.
 */
public final class DomXmlCodec implements Codec {

    public static final String NAME = "xml-dom";

    private final XmlCodec writer = new XmlCodec();
    private final DocumentBuilderFactory factory;
    /** Builders are not thread-safe and costly to create, so each thread keeps one and resets it. */
    private final ThreadLocal<DocumentBuilder> builders = new ThreadLocal<>();

    public DomXmlCodec() {
        factory = DocumentBuilderFactory.newInstance();
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the XML parser cannot be made safe", e);
        }
        factory.setExpandEntityReferences(false);
        factory.setXIncludeAware(false);
        factory.setCoalescing(true);
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
        Element document;
        try {
            DocumentBuilder builder = builders.get();
            if (builder == null) {
                synchronized (factory) {
                    builder = factory.newDocumentBuilder();
                }
                builders.set(builder);
            } else {
                builder.reset();
            }
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler()); // no "[Fatal Error]" lines on stderr
            document = builder.parse(new ByteArrayInputStream(bytes, offset, length)).getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException | RuntimeException e) {
            throw new CodecException("not a valid xml message: " + e.getMessage(), e);
        }
        ElementTree root = new ElementTree();
        root.child(document.getLocalName() == null ? document.getTagName() : document.getLocalName(),
                tree(document, 1));
        return MessageTree.read(XmlDocuments.rootOf(root));
    }

    private static com.fasterxml.jackson.databind.JsonNode tree(Element element, int depth) throws CodecException {
        if (depth > ElementTree.MAX_DEPTH) {
            throw new CodecException("not a valid xml message: elements nest deeper than " + ElementTree.MAX_DEPTH);
        }
        ElementTree t = new ElementTree();
        for (Node c = element.getFirstChild(); c != null; c = c.getNextSibling()) {
            if (c instanceof Element e) {
                t.child(e.getLocalName() == null ? e.getTagName() : e.getLocalName(), tree(e, depth + 1));
            } else if (c.getNodeType() == Node.TEXT_NODE || c.getNodeType() == Node.CDATA_SECTION_NODE) {
                t.text(c.getNodeValue());
            }
        }
        return t.toNode();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
