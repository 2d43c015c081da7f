package org.salgate.bench.codec.format;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Set;
import org.salgate.bench.codec.study.Address;
import org.salgate.bench.codec.study.Person;
import org.salgate.bench.codec.study.Poi;
import org.salgate.bench.codec.study.Pois;
import org.salgate.bench.codec.study.Sex;

/**
 * The {@code java} format: Java serialization of the study records. Decoding runs under a JEP 290
 * filter that allows exactly the records, their enum and the JDK collections the records hold, and
 * bounds depth, array length, references and stream size; any other class is refused before it is
 * instantiated.
 */
public final class JavaSerialFormat implements PayloadFormat {

    /** The format name. */
    public static final String NAME = "java";

    static final int MAX_DEPTH = 64; // a Person graph is about 15 deep, a Pois about 5
    static final long MAX_ARRAY_LENGTH = 1_000_000; // POIs or children in one list
    static final long MAX_REFERENCES = 10_000_000;
    static final long MAX_STREAM_BYTES = 256L * 1024 * 1024;

    private static final Set<String> ALLOWED = Set.of(
            Pois.class.getName(), Poi.class.getName(), Person.class.getName(), Address.class.getName(),
            Sex.class.getName(), Enum.class.getName(), String.class.getName(), Object[].class.getName(),
            "java.util.CollSer", "java.util.ImmutableCollections$ListN", "java.util.ImmutableCollections$List12",
            "java.util.Collections$UnmodifiableMap", "java.util.TreeMap");

    static final ObjectInputFilter FILTER = info -> {
        if (info.depth() > MAX_DEPTH || info.arrayLength() > MAX_ARRAY_LENGTH
                || info.references() > MAX_REFERENCES || info.streamBytes() > MAX_STREAM_BYTES) {
            return ObjectInputFilter.Status.REJECTED;
        }
        Class<?> c = info.serialClass();
        if (c == null) {
            return ObjectInputFilter.Status.ALLOWED;
        }
        return ALLOWED.contains(c.getName()) ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
    };

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public byte[] encode(Object value) throws IOException {
        if (!(value instanceof Pois) && !(value instanceof Person)) {
            throw new IOException("the java format writes Pois and Person, not " + ProtobufFormat.describe(value));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) throws IOException {
        Object read;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            in.setObjectInputFilter(FILTER);
            read = in.readObject();
        } catch (ClassNotFoundException | RuntimeException e) {
            throw new IOException("not a valid java " + type.getSimpleName() + ": " + e, e);
        }
        if (!type.isInstance(read)) {
            throw new IOException("not a valid java " + type.getSimpleName() + ": the stream holds a "
                    + ProtobufFormat.describe(read));
        }
        return type.cast(read);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
