package org.salgate.wire;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Finds codecs on the class path by name. The default codec is {@value #DEFAULT}. */
public final class Codecs {

    /** The codec used when none is chosen. */
    public static final String DEFAULT = ProtobufCodec.NAME;

    private static final Logger LOG = LoggerFactory.getLogger(Codecs.class);
    private static volatile Map<String, Codec> loaded;

    private Codecs() {}

    /** Every codec found, by name, sorted. */
    public static Map<String, Codec> available() {
        Map<String, Codec> result = loaded;
        if (result == null) {
            result = load();
            loaded = result;
        }
        return result;
    }

    /**
     * The codec with the given name.
     *
     * @throws IllegalArgumentException naming the codecs that are available
     */
    public static Codec byName(String name) {
        Codec codec = available().get(name);
        if (codec == null) {
            throw new IllegalArgumentException(
                    "unknown codec '" + name + "'; available: " + String.join(", ", available().keySet()));
        }
        return codec;
    }

    /** The default codec. */
    public static Codec defaultCodec() {
        return byName(DEFAULT);
    }

    private static Map<String, Codec> load() {
        Map<String, Codec> byName = new TreeMap<>();
        byName.put(ProtobufCodec.NAME, ProtobufCodec.INSTANCE);
        var iterator = ServiceLoader.load(Codec.class, Codecs.class.getClassLoader()).iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                Codec codec = iterator.next();
                Codec previous = byName.putIfAbsent(codec.name(), codec);
                if (previous != null && previous.getClass() != codec.getClass()) {
                    LOG.warn("two codecs are named '" + codec.name() + "': keeping "
                            + previous.getClass().getName() + ", ignoring " + codec.getClass().getName());
                }
            } catch (ServiceConfigurationError | RuntimeException e) {
                LOG.warn("a codec could not be loaded and is skipped", e);
            }
        }
        return Collections.unmodifiableMap(byName);
    }
}
