package org.salgate.sensorml;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;
import javax.xml.validation.Schema;
import javax.xml.validation.ValidatorHandler;
import org.w3c.dom.DOMException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.Attributes;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.Locator;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.DefaultHandler;
import org.xml.sax.helpers.XMLFilterImpl;

/**
 * Parses a document with a hardened SAX parser (no DTD, no external entities, size cap), validates
 * it against a compiled schema in the same pass, and builds a DOM whose elements carry their line
 * and column, so that later checks can say where a problem is. Stateless; every call builds its
 * own parser and validator, which are not thread-safe.
 */
final class XmlInput {

    /** Largest document accepted, in characters: descriptions are a few KiB; 1 MiB leaves room. */
    static final int MAX_CHARS = 1 << 20;

    private static final String LOCATION = "org.salgate.sensorml.location";

    /** Namespace URIs shortened to their usual prefix in messages. */
    private static final Map<String, String> PREFIXES = Map.of(
            "http://www.opengis.net/sensorml/2.0", "sml",
            "http://www.opengis.net/swe/2.0", "swe",
            "http://www.opengis.net/gml/3.2", "gml",
            "http://www.w3.org/1999/xlink", "xlink",
            Cml.NAMESPACE, "cml",
            Pcml.NAMESPACE, "pcml");

    private static final Pattern CODE = Pattern.compile("^cvc-[A-Za-z0-9.-]+:\\s*");
    private static final Pattern SENTENCE_BREAK = Pattern.compile("\\.\\s+([A-Z'])");

    private XmlInput() {}

    /**
     * Parses and validates {@code xml}.
     *
     * @param kind the document kind named in messages, such as {@code SensorML}
     * @throws DocumentException when the document is too large, not well-formed, or invalid
     */
    static Document parse(String xml, Schema schema, String kind) throws DocumentException {
        if (xml == null || xml.isBlank()) {
            throw new DocumentException("The " + kind + " document is empty; send the XML text of the document.");
        }
        if (xml.length() > MAX_CHARS) {
            throw new DocumentException("The " + kind + " document has " + xml.length()
                    + " characters, more than the limit of " + MAX_CHARS + "; send a smaller document.");
        }
        Errors errors = new Errors(kind);
        Tracker tracker = new Tracker(errors);
        DomBuilder builder = new DomBuilder(tracker);
        try {
            ValidatorHandler validator = schema.newValidatorHandler();
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            validator.setErrorHandler(errors);
            validator.setContentHandler(builder);
            tracker.setParent(hardenedReader());
            tracker.setContentHandler(validator);
            tracker.setErrorHandler(errors);
            tracker.parse(new InputSource(new StringReader(xml)));
            errors.finish();
        } catch (SAXException e) {
            if (errors.first != null) {
                throw errors.first;
            }
            throw errors.toDocumentException(e, true);
        } catch (IOException | ParserConfigurationException e) {
            throw new IllegalStateException("the JDK XML parser cannot be set up securely: " + e.getMessage(), e);
        }
        return builder.document;
    }

    /** A DocumentException located at {@code element}, whose message names it. */
    static DocumentException at(Element element, String message) {
        int[] location = (int[]) element.getUserData(LOCATION);
        String text = "At element " + element.getTagName() + ": " + message;
        return location == null ? new DocumentException(text)
                : new DocumentException(text, location[0], location[1], null);
    }

    private static XMLReader hardenedReader() throws ParserConfigurationException, SAXException {
        SAXParserFactory factory = SAXParserFactory.newDefaultInstance();
        factory.setNamespaceAware(true);
        factory.setValidating(false);
        factory.setXIncludeAware(false);
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
        factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        XMLReader reader = factory.newSAXParser().getXMLReader();
        reader.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        reader.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return reader;
    }

    /**
     * Turns the first parser or validator error into a DocumentException; ignores warnings. A
     * datatype error (such as "'x' is not a valid value for 'double'") is followed at the same
     * place by one naming the attribute or element, so it is held until that one arrives and the two
     * are reported together.
     */
    private static final class Errors implements ErrorHandler {
        private static final Pattern NAMES_THE_OWNER = Pattern.compile("^cvc-(attribute\\.3|type\\.3\\.1\\.3|elt\\.5\\.2\\.2)");

        private final String kind;
        private String element;
        private SAXParseException held;
        private String heldElement;
        DocumentException first;

        Errors(String kind) {
            this.kind = kind;
        }

        @Override
        public void warning(SAXParseException e) {
        }

        @Override
        public void error(SAXParseException e) throws SAXException {
            if (first != null) {
                throw e;
            }
            if (held == null) {
                held = e;
                heldElement = element;
                return;
            }
            boolean samePlace = held.getLineNumber() == e.getLineNumber() && held.getColumnNumber() == e.getColumnNumber();
            if (samePlace && NAMES_THE_OWNER.matcher(String.valueOf(e.getMessage())).find()) {
                first = build(held, false, heldElement, clean(e.getMessage()) + "; " + lowerFirst(clean(held.getMessage())));
            } else {
                first = toDocumentException(held, false, heldElement);
            }
            throw e;
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            if (first == null) {
                first = held != null ? toDocumentException(held, false, heldElement) : toDocumentException(e, true, element);
            }
            throw e;
        }

        /** Throws the held error, if any, once the document has been read to its end. */
        void finish() throws DocumentException {
            if (first == null && held != null) {
                first = toDocumentException(held, false, heldElement);
            }
            if (first != null) {
                throw first;
            }
        }

        DocumentException toDocumentException(SAXException e, boolean fatal) {
            return toDocumentException(e, fatal, element);
        }

        private DocumentException toDocumentException(SAXException e, boolean fatal, String where) {
            String detail = String.valueOf(e.getMessage());
            if (detail.contains("disallow-doctype-decl")) {
                return build(e, true, null, null);
            }
            return build(e, fatal, where, clean(detail));
        }

        private DocumentException build(SAXException e, boolean fatal, String where, String detail) {
            String what = detail == null
                    ? "contains a DOCTYPE declaration, which is refused (no DTDs or entities); remove it"
                    : (fatal ? "is not well-formed XML" : "does not match its schema")
                            + (where == null ? "" : (fatal ? " near element " : " at element ") + where)
                            + ": " + detail;
            int line = e instanceof SAXParseException p ? p.getLineNumber() : -1;
            int column = e instanceof SAXParseException p ? p.getColumnNumber() : -1;
            return new DocumentException("The " + kind + " document " + what, line, column, null);
        }

        /** The parser's message without its code, with usual prefixes for namespaces, as one sentence. */
        private static String clean(String message) {
            String m = CODE.matcher(String.valueOf(message).strip()).replaceFirst("");
            for (Map.Entry<String, String> e : PREFIXES.entrySet()) {
                m = m.replace("\"" + e.getKey() + "\":", e.getValue() + ":");
            }
            m = m.replace("'{", "'").replace("}'", "'");
            m = SENTENCE_BREAK.matcher(m).replaceAll(r -> "; " + r.group(1).toLowerCase(java.util.Locale.ROOT));
            while (m.endsWith(".")) {
                m = m.substring(0, m.length() - 1);
            }
            return m;
        }

        private static String lowerFirst(String s) {
            return s.isEmpty() || !Character.isUpperCase(s.charAt(0)) ? s
                    : Character.toLowerCase(s.charAt(0)) + s.substring(1);
        }
    }

    /** Sits between parser and validator: keeps the locator and the element being processed. */
    private static final class Tracker extends XMLFilterImpl {
        private final Errors errors;
        private final Deque<String> open = new ArrayDeque<>();
        Locator locator;

        Tracker(Errors errors) {
            this.errors = errors;
        }

        @Override
        public void setDocumentLocator(Locator locator) {
            this.locator = locator;
            super.setDocumentLocator(locator);
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
            open.push(qName);
            errors.element = qName;
            super.startElement(uri, localName, qName, atts);
        }

        @Override
        public void endElement(String uri, String localName, String qName) throws SAXException {
            errors.element = qName;
            super.endElement(uri, localName, qName);
            open.pop();
            errors.element = open.peek();
        }
    }

    /** Builds the DOM from the validated events, recording each element's location. */
    private static final class DomBuilder extends DefaultHandler {
        private final Tracker tracker;
        Document document;
        private Node current;

        DomBuilder(Tracker tracker) {
            this.tracker = tracker;
        }

        @Override
        public void startDocument() throws SAXException {
            try {
                document = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder().newDocument();
            } catch (ParserConfigurationException e) {
                throw new SAXException(e);
            }
            current = document;
        }

        @Override
        public void startElement(String uri, String localName, String qName, Attributes atts) throws SAXException {
            Element element;
            try {
                element = document.createElementNS(uri.isEmpty() ? null : uri, qName);
                for (int i = 0; i < atts.getLength(); i++) {
                    String ns = atts.getURI(i);
                    element.setAttributeNS(ns.isEmpty() ? null : ns, atts.getQName(i), atts.getValue(i));
                }
            } catch (DOMException e) {
                // a name the parser let through but DOM refuses, such as a prefix bound to no namespace
                throw new SAXException("element <" + qName + "> or one of its attributes has a name that is not "
                        + "namespace-well-formed (" + e.getMessage() + ")", e);
            }
            if (tracker.locator != null) {
                element.setUserData(LOCATION,
                        new int[] {tracker.locator.getLineNumber(), tracker.locator.getColumnNumber()}, null);
            }
            current.appendChild(element);
            current = element;
        }

        @Override
        public void endElement(String uri, String localName, String qName) {
            current = current.getParentNode();
        }

        @Override
        public void characters(char[] ch, int start, int length) {
            if (current != document) {
                current.appendChild(document.createTextNode(new String(ch, start, length)));
            }
        }
    }
}
