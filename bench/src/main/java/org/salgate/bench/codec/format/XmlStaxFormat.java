package org.salgate.bench.codec.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;

/**
 * The {@code xml-stax} format: writes the {@code xml} document and reads it with the JDK's StAX pull
 * parser into the records by hand, the pull side of the mobile study's DOM-versus-pull comparison.
 * DTDs and external entities are off.
 */
public final class XmlStaxFormat implements PayloadFormat {

    /** The format name. */
    public static final String NAME = "xml-stax";

    private final PayloadFormat writer;
    private final ThreadLocal<XMLInputFactory> factory = ThreadLocal.withInitial(XmlStaxFormat::newFactory);

    /** Writes with {@code xml}, whose documents this format reads. */
    public XmlStaxFormat(PayloadFormat xml) {
        this.writer = xml;
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        return f;
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
        XMLStreamReader r = null;
        try {
            r = factory.get().createXMLStreamReader(new ByteArrayInputStream(bytes));
            r.nextTag();
            Object value;
            if (type == Pois.class) {
                expect(r, XmlFields.POIS);
                value = readPois(r);
            } else if (type == Person.class) {
                expect(r, XmlFields.PERSON);
                value = readPerson(r);
            } else {
                throw new IOException("the xml-stax format reads Pois and Person, not " + type.getName());
            }
            while (r.hasNext()) {
                r.next();
            }
            return type.cast(value);
        } catch (XMLStreamException | RuntimeException e) {
            throw new IOException("not a valid xml " + type.getSimpleName() + ": " + e.getMessage(), e);
        } finally {
            close(r);
        }
    }

    private static Pois readPois(XMLStreamReader r) throws XMLStreamException, IOException {
        List<Poi> items = new ArrayList<>();
        while (nextChild(r)) {
            if (!r.getLocalName().equals(XmlFields.ITEMS)) {
                throw XmlFields.unexpected(r.getLocalName(), XmlFields.POIS);
            }
            while (nextChild(r)) {
                expect(r, XmlFields.ITEMS);
                items.add(readPoi(r));
            }
        }
        return new Pois(items);
    }

    private static Poi readPoi(XMLStreamReader r) throws XMLStreamException, IOException {
        String[] v = XmlFields.newPoi();
        while (nextChild(r)) {
            int i = XmlFields.poiField(r.getLocalName());
            if (i < 0) {
                throw XmlFields.unexpected(r.getLocalName(), "poi");
            }
            v[i] = r.getElementText();
        }
        return XmlFields.poi(v);
    }

    private static Person readPerson(XMLStreamReader r) throws XMLStreamException, IOException {
        String id = null;
        String name = null;
        Integer age = null;
        String sex = null;
        Address address = null;
        List<Person> children = new ArrayList<>();
        Map<String, Person> friends = new TreeMap<>();
        while (nextChild(r)) {
            switch (r.getLocalName()) {
                case "id" -> id = r.getElementText();
                case "name" -> name = r.getElementText();
                case "age" -> age = XmlFields.age(r.getElementText());
                case "sex" -> sex = r.getElementText();
                case XmlFields.ADDRESS -> address = readAddress(r);
                case XmlFields.CHILDREN -> {
                    while (nextChild(r)) {
                        expect(r, XmlFields.CHILDREN);
                        children.add(readPerson(r));
                    }
                }
                case XmlFields.FRIENDS -> {
                    while (nextChild(r)) {
                        String key = r.getLocalName();
                        friends.put(key, readPerson(r));
                    }
                }
                default -> throw XmlFields.unexpected(r.getLocalName(), XmlFields.PERSON);
            }
        }
        if (id == null || name == null || age == null || sex == null || address == null) {
            throw XmlFields.missing("id, name, age, sex or address", XmlFields.PERSON);
        }
        return new Person(id, name, age, XmlFields.sex(sex), address, children, friends);
    }

    private static Address readAddress(XMLStreamReader r) throws XMLStreamException, IOException {
        String[] v = XmlFields.newAddress();
        while (nextChild(r)) {
            int i = XmlFields.addressField(r.getLocalName());
            if (i < 0) {
                throw XmlFields.unexpected(r.getLocalName(), XmlFields.ADDRESS);
            }
            v[i] = r.getElementText();
        }
        return XmlFields.address(v);
    }

    /** Moves to the next child element (true) or to the end of the current one (false). */
    private static boolean nextChild(XMLStreamReader r) throws XMLStreamException {
        return r.nextTag() == XMLStreamConstants.START_ELEMENT;
    }

    private static void expect(XMLStreamReader r, String element) throws IOException {
        if (!r.getLocalName().equals(element)) {
            throw new IOException("not a valid xml document: expected <" + element + ">, found <"
                    + r.getLocalName() + ">");
        }
    }

    private static void close(XMLStreamReader r) {
        if (r != null) {
            try {
                r.close();
            } catch (XMLStreamException ignored) {
                // nothing was held open beyond the byte array
            }
        }
    }

    @Override
    public String toString() {
        return NAME;
    }
}
