package org.salgate.bench.codec.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every payload format the codec bench and the matrix compare, in report order. */
public final class PayloadFormats {

    private static final Map<String, PayloadFormat> ALL = load();

    private PayloadFormats() {}

    /** The formats in report order: binary first, then text, then the gzip'd variants. */
    public static List<PayloadFormat> all() {
        return List.copyOf(ALL.values());
    }

    /** Every name, in report order. */
    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /**
     * The format with this name.
     *
     * @throws IllegalArgumentException naming the formats there are
     */
    public static PayloadFormat byName(String name) {
        PayloadFormat f = ALL.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown codec '" + name + "'; available: " + String.join(", ", ALL.keySet()));
        }
        return f;
    }

    private static Map<String, PayloadFormat> load() {
        PayloadFormat protobuf = new ProtobufFormat();
        PayloadFormat java = new JavaSerialFormat();
        PayloadFormat msgpack = JacksonFormat.msgpack();
        PayloadFormat json = JacksonFormat.json();
        PayloadFormat xml = JacksonFormat.xml();
        List<PayloadFormat> formats = new ArrayList<>(List.of(protobuf, java, msgpack, json, xml,
                new XmlStaxFormat(xml), new XmlDomFormat(xml)));
        for (PayloadFormat inner : List.of(protobuf, java, msgpack, json, xml)) {
            formats.add(new GzipFormat(inner));
        }
        Map<String, PayloadFormat> byName = new LinkedHashMap<>();
        for (PayloadFormat f : formats) {
            byName.put(f.name(), f);
        }
        return Collections.unmodifiableMap(byName);
    }
}
