package org.salgate.bench.codec.format;

import java.io.IOException;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Sex;

/**
 * The element names of the {@code xml} document (Jackson's defaults: the record's simple name as
 * root, component names as elements, lists wrapped in an element of the same name, map keys as
 * element names) and the field tables the hand-written StAX and DOM readers fill.
 */
final class XmlFields {

    static final String POIS = "Pois";
    static final String ITEMS = "items";
    static final String PERSON = "Person";
    static final String ADDRESS = "address";
    static final String CHILDREN = "children";
    static final String FRIENDS = "friends";

    private static final String[] POI = {"id", "name", "category", "description", "street", "city", "postalCode",
        "country", "latitude", "longitude", "phone", "website", "openingHours"};
    private static final String[] ADDRESS_FIELDS = {"street", "city", "zip", "country"};

    private XmlFields() {}

    /** The slot of a POI field, or -1. */
    static int poiField(String name) {
        return indexOf(POI, name);
    }

    static String[] newPoi() {
        return new String[POI.length];
    }

    static Poi poi(String[] v) throws IOException {
        requireAll(v, POI, "poi");
        return new Poi(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12]);
    }

    /** The slot of an address field, or -1. */
    static int addressField(String name) {
        return indexOf(ADDRESS_FIELDS, name);
    }

    static String[] newAddress() {
        return new String[ADDRESS_FIELDS.length];
    }

    static Address address(String[] v) throws IOException {
        requireAll(v, ADDRESS_FIELDS, "address");
        return new Address(v[0], v[1], v[2], v[3]);
    }

    static int age(String text) throws IOException {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IOException("not a valid xml person: age '" + text + "' is not an integer", e);
        }
    }

    static Sex sex(String text) throws IOException {
        for (Sex s : Sex.values()) {
            if (s.name().equals(text)) {
                return s;
            }
        }
        throw new IOException("not a valid xml person: sex '" + text + "' is not one of FEMALE, MALE");
    }

    static IOException unexpected(String element, String in) {
        return new IOException("not a valid xml document: unexpected element <" + element + "> in <" + in + ">");
    }

    static IOException missing(String what, String in) {
        return new IOException("not a valid xml document: <" + in + "> has no " + what);
    }

    private static int indexOf(String[] names, String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private static void requireAll(String[] values, String[] names, String what) throws IOException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw missing("<" + names[i] + ">", what);
            }
        }
    }
}
