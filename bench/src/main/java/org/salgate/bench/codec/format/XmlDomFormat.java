package org.salgate.bench.codec.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The {@code xml-dom} format: writes the {@code xml} document and reads it into a DOM tree (the
 * JDK's DocumentBuilder), then walks the tree into the records by hand, the DOM side of the mobile
 * study's DOM-versus-pull comparison. Doctype declarations are refused; secure processing is on.
 */
public final class XmlDomFormat implements PayloadFormat {

    /** The format name. */
    public static final String NAME = "xml-dom";

    private final PayloadFormat writer;
    private final ThreadLocal<DocumentBuilder> builder = ThreadLocal.withInitial(XmlDomFormat::newBuilder);

    /** Writes with {@code xml}, whose documents this format reads. */
    public XmlDomFormat(PayloadFormat xml) {
        this.writer = xml;
    }

    private static DocumentBuilder newBuilder() {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newDefaultInstance();
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setFeature("http://xml.org/sax/features/external-general-entities", false);
            f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            f.setNamespaceAware(false);
            DocumentBuilder b = f.newDocumentBuilder();
            b.setErrorHandler(new DefaultHandler());
            return b;
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("the JDK's DOM parser does not support secure processing", e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Object value) throws IOException {
        return writer.encode(value);
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) throws IOException {
        DocumentBuilder b = builder.get();
        try {
            Element root = b.parse(new ByteArrayInputStream(bytes)).getDocumentElement();
            if (type == Pois.class) {
                expect(root, XmlFields.POIS);
                return type.cast(readPois(root));
            }
            if (type == Person.class) {
                expect(root, XmlFields.PERSON);
                return type.cast(readPerson(root));
            }
            throw new IOException("the xml-dom format reads Pois and Person, not " + type.getName());
        } catch (SAXException | RuntimeException e) {
            throw new IOException("not a valid xml " + type.getSimpleName() + ": " + e.getMessage(), e);
        } finally {
            b.reset();
        }
    }

    private static Pois readPois(Element pois) throws IOException {
        List<Poi> items = new ArrayList<>();
        for (Element wrapper = firstChild(pois); wrapper != null; wrapper = nextSibling(wrapper)) {
            expect(wrapper, XmlFields.ITEMS);
            for (Element item = firstChild(wrapper); item != null; item = nextSibling(item)) {
                expect(item, XmlFields.ITEMS);
                items.add(readPoi(item));
            }
        }
        return new Pois(items);
    }

    private static Poi readPoi(Element poi) throws IOException {
        String[] v = XmlFields.newPoi();
        for (Element field = firstChild(poi); field != null; field = nextSibling(field)) {
            int i = XmlFields.poiField(field.getTagName());
            if (i < 0) {
                throw XmlFields.unexpected(field.getTagName(), "poi");
            }
            v[i] = text(field);
        }
        return XmlFields.poi(v);
    }

    private static Person readPerson(Element person) throws IOException {
        String id = null;
        String name = null;
        Integer age = null;
        String sex = null;
        Address address = null;
        List<Person> children = new ArrayList<>();
        Map<String, Person> friends = new TreeMap<>();
        for (Element e = firstChild(person); e != null; e = nextSibling(e)) {
            switch (e.getTagName()) {
                case "id" -> id = text(e);
                case "name" -> name = text(e);
                case "age" -> age = XmlFields.age(text(e));
                case "sex" -> sex = text(e);
                case XmlFields.ADDRESS -> address = readAddress(e);
                case XmlFields.CHILDREN -> {
                    for (Element c = firstChild(e); c != null; c = nextSibling(c)) {
                        expect(c, XmlFields.CHILDREN);
                        children.add(readPerson(c));
                    }
                }
                case XmlFields.FRIENDS -> {
                    for (Element f = firstChild(e); f != null; f = nextSibling(f)) {
                        friends.put(f.getTagName(), readPerson(f));
                    }
                }
                default -> throw XmlFields.unexpected(e.getTagName(), XmlFields.PERSON);
            }
        }
        if (id == null || name == null || age == null || sex == null || address == null) {
            throw XmlFields.missing("id, name, age, sex or address", XmlFields.PERSON);
        }
        return new Person(id, name, age, XmlFields.sex(sex), address, children, friends);
    }

    private static Address readAddress(Element address) throws IOException {
        String[] v = XmlFields.newAddress();
        for (Element field = firstChild(address); field != null; field = nextSibling(field)) {
            int i = XmlFields.addressField(field.getTagName());
            if (i < 0) {
                throw XmlFields.unexpected(field.getTagName(), XmlFields.ADDRESS);
            }
            v[i] = text(field);
        }
        return XmlFields.address(v);
    }

    private static String text(Element e) throws IOException {
        if (firstChild(e) != null) {
            throw new IOException("not a valid xml document: <" + e.getTagName() + "> holds elements, not text");
        }
        return e.getTextContent();
    }

    private static Element firstChild(Node parent) {
        return elementFrom(parent.getFirstChild());
    }

    private static Element nextSibling(Node node) {
        return elementFrom(node.getNextSibling());
    }

    private static Element elementFrom(Node node) {
        Node n = node;
        while (n != null && n.getNodeType() != Node.ELEMENT_NODE) {
            n = n.getNextSibling();
        }
        return (Element) n;
    }

    private static void expect(Element e, String name) throws IOException {
        if (!e.getTagName().equals(name)) {
            throw new IOException("not a valid xml document: expected <" + name + ">, found <" + e.getTagName() + ">");
        }
    }

    @Override
    public String toString() {
        return NAME;
    }
}
