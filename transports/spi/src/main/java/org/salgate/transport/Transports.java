package org.salgate.transport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds transports on the class path: the one place that runs {@link ServiceLoader} for
 * {@link TransportProvider}. Unavailable providers are dropped, the rest sorted by priority then
 * name, and a provider that fails to load is logged and skipped.
 */
public final class Transports {

    /** The transport used when none is chosen. */
    public static final String DEFAULT = "netty";

    private static final Logger LOG = LoggerFactory.getLogger(Transports.class);

    private Transports() {}

    /** The available transports, by name, in priority order. */
    public static Map<String, TransportProvider> available() {
        return available(Transports.class.getClassLoader());
    }

    /** The available transports visible to {@code loader}. */
    public static Map<String, TransportProvider> available(ClassLoader loader) {
        List<TransportProvider> found = new ArrayList<>();
        var iterator = ServiceLoader.load(TransportProvider.class, loader).iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                TransportProvider p = iterator.next();
                if (p.isAvailable()) {
                    found.add(p);
                } else {
                    LOG.debug("transport {} is not available here", p.name());
                }
            } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
                LOG.warn("a transport could not be loaded and is skipped", e);
            }
        }
        found.sort(Comparator.comparingInt(TransportProvider::priority).reversed()
                .thenComparing(TransportProvider::name));
        Map<String, TransportProvider> byName = new LinkedHashMap<>();
        for (TransportProvider p : found) {
            TransportProvider previous = byName.putIfAbsent(p.name(), p);
            if (previous != null) {
                LOG.warn("two transports are named '" + p.name() + "': keeping " + previous.getClass().getName()
                        + ", ignoring " + p.getClass().getName());
            }
        }
        return byName;
    }

    /**
     * The transport with the given name.
     *
     * @throws IllegalArgumentException naming the transports found, or which module to add when none is
     */
    public static TransportProvider byName(String name) {
        Map<String, TransportProvider> all = available();
        TransportProvider p = all.get(name);
        if (p == null) {
            if (all.isEmpty()) {
                throw new IllegalArgumentException("unknown transport '" + name
                        + "': no transport is on the class path; add a module such as salgate-transport-netty");
            }
            throw new IllegalArgumentException(
                    "unknown transport '" + name + "'; available: " + String.join(", ", all.keySet()));
        }
        return p;
    }
}
