package org.salgate.sensorml;

import java.io.StringWriter;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Builds a document as a DOM and serializes it with the JDK's serializer (which does the escaping).
 * One instance per document; not thread-safe.
 */
final class XmlOutput {

    private final Document document;

    private XmlOutput(Document document) {
        this.document = document;
    }

    /** A new document whose root is {@code qName} in {@code namespace}, declaring the prefixes given in pairs. */
    static XmlOutput create(String namespace, String qName, String... prefixAndNamespace) {
        try {
            Document doc = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder().newDocument();
            Element root = doc.createElementNS(namespace, qName);
            for (int i = 0; i + 1 < prefixAndNamespace.length; i += 2) {
                String prefix = prefixAndNamespace[i];
                root.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI,
                        prefix.isEmpty() ? "xmlns" : "xmlns:" + prefix, prefixAndNamespace[i + 1]);
            }
            doc.appendChild(root);
            return new XmlOutput(doc);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK DOM builder is unavailable: " + e.getMessage(), e);
        }
    }

    Element root() {
        return document.getDocumentElement();
    }

    /** Appends a new element to {@code parent}. */
    Element add(Element parent, String namespace, String qName) {
        Element child = document.createElementNS(namespace, qName);
        parent.appendChild(child);
        return child;
    }

    /** Appends a new element holding {@code text} to {@code parent}. */
    Element add(Element parent, String namespace, String qName, String text) {
        Element child = add(parent, namespace, qName);
        child.appendChild(document.createTextNode(xmlSafe(text)));
        return child;
    }

    /** Appends a deep copy of {@code element}, which may belong to another document, to {@code parent}. */
    Element addCopy(Element parent, Element element) {
        Element copy = (Element) document.importNode(element, true);
        parent.appendChild(copy);
        return copy;
    }

    /** Sets an unqualified attribute. */
    static void attr(Element element, String name, String value) {
        element.setAttributeNS(null, name, xmlSafe(value));
    }

    /** Sets a namespaced attribute. */
    static void attr(Element element, String namespace, String qName, String value) {
        element.setAttributeNS(namespace, qName, xmlSafe(value));
    }

    /** The document as indented UTF-8 XML text with an XML declaration. */
    String serialize() {
        try {
            TransformerFactory factory = TransformerFactory.newDefaultInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            Transformer t = factory.newTransformer();
            t.setOutputProperty(OutputKeys.INDENT, "yes");
            t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            // The JDK serializer puts the root on the declaration's line; write the declaration ourselves.
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            StringWriter out = new StringWriter();
            out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            t.transform(new DOMSource(document), new StreamResult(out));
            return out.toString();
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot serialize XML: " + e.getMessage(), e);
        }
    }

    /**
     * Replaces the characters XML 1.0 cannot carry (most control characters, lone surrogates) with
     * U+FFFD, so that every written document can be read back.
     */
    static String xmlSafe(String s) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok;
            if (Character.isHighSurrogate(c)) {
                ok = i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                if (ok) {
                    if (b != null) {
                        b.append(c).append(s.charAt(i + 1));
                    }
                    i++;
                    continue;
                }
            } else {
                ok = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD);
            }
            if (!ok && b == null) {
                b = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (b != null) {
                b.append(ok ? c : '\uFFFD');
            }
        }
        return b == null ? s : b.toString();
    }
}
