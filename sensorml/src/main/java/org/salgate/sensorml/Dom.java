package org.salgate.sensorml;

import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** Small helpers for walking a validated DOM. */
final class Dom {

    private Dom() {}

    /** The child elements of {@code parent} named {@code localName} in {@code namespace}, in order. */
    static List<Element> children(Element parent, String namespace, String localName) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && namespace.equals(e.getNamespaceURI()) && localName.equals(e.getLocalName())) {
                out.add(e);
            }
        }
        return out;
    }

    /** The first child element of {@code parent} named {@code localName}, or null. */
    static Element child(Element parent, String namespace, String localName) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && namespace.equals(e.getNamespaceURI()) && localName.equals(e.getLocalName())) {
                return e;
            }
        }
        return null;
    }

    /** The first child element of {@code parent}, whatever its name, or null. */
    static Element firstElement(Element parent) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    /** The text of the first child named {@code localName}, or {@code fallback} when there is none. */
    static String childText(Element parent, String namespace, String localName, String fallback) {
        Element e = child(parent, namespace, localName);
        return e == null ? fallback : e.getTextContent();
    }

    /** An unqualified attribute's value, or null when it is absent. */
    static String attr(Element element, String name) {
        return element.hasAttributeNS(null, name) ? element.getAttributeNS(null, name) : null;
    }
}
