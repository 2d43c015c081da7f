package org.salgate.transport.rmi;

import java.io.ObjectInputFilter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide deserialization filter (JEP 290) the RMI transport sets, unless the process has
 * one, for streams without their own: what a client reads back from a registry or agent, and RMI's
 * distributed garbage collection. Only those classes and the java codec's tree, with depth,
 * references, arrays and stream size bounded by the frame limit, so a gadget class or a huge array
 * is refused before anything is allocated.
 */
public final class ProcessSerialFilter {

    /** Deepest graph allowed: an exception with its cause chain and stack traces. */
    static final int MAX_DEPTH = 32;
    /** Most objects and references in one stream: a push batch of frames, a stack trace. */
    static final long MAX_REFERENCES = 100_000;

    /** What RMI calls and the java codec carry; everything else is rejected. */
    static final List<String> ALLOWED = List.of(
            // RMI: stubs, object ids, leases, remote exceptions
            "java.rmi.**", "java.lang.reflect.Proxy", "java.lang.reflect.InvocationHandler",
            "org.salgate.transport.rmi.*", "org.salgate.codec.java.SerialNode",
            // what remote exceptions are made of
            "java.lang.String", "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException",
            "java.lang.Error", "java.lang.IllegalArgumentException", "java.lang.IllegalStateException",
            "java.lang.NullPointerException", "java.lang.UnsupportedOperationException",
            "java.lang.StackTraceElement", "java.util.Collections$EmptyList", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.ArrayList",
            "java.io.IOException", "java.io.EOFException", "java.io.ObjectStreamException",
            "java.io.InvalidClassException", "java.io.InvalidObjectException", "java.io.StreamCorruptedException",
            "java.io.UncheckedIOException", "java.net.SocketException", "java.net.ConnectException",
            "java.net.SocketTimeoutException", "java.net.UnknownHostException");

    private static final Logger LOG = LoggerFactory.getLogger(ProcessSerialFilter.class);

    private ProcessSerialFilter() {}

    /** The filter's pattern (the syntax of {@code jdk.serialFilter}) for frames of at most {@code maxFrameBytes}. */
    public static String pattern(int maxFrameBytes) {
        long maxStreamBytes = 8L * maxFrameBytes + (1 << 20); // a push batch of frames and its framing
        return "maxdepth=" + MAX_DEPTH + ";maxrefs=" + MAX_REFERENCES + ";maxarray=" + maxFrameBytes
                + ";maxbytes=" + maxStreamBytes + ";" + String.join(";", ALLOWED) + ";!*";
    }

    /**
     * Sets the process-wide filter for frames of at most {@code maxFrameBytes}, unless one is set
     * already (by {@code -Djdk.serialFilter} or an earlier call), which is then kept.
     */
    public static synchronized void install(int maxFrameBytes) {
        if (ObjectInputFilter.Config.getSerialFilter() != null) {
            LOG.debug("a process-wide deserialization filter is set already; keeping it");
            return;
        }
        ObjectInputFilter.Config.setSerialFilter(filter(maxFrameBytes));
    }

    /**
     * The filter: {@link #pattern}, plus the dynamic proxy classes of RMI stubs, which no pattern
     * can name, when every interface they implement is allowed.
     */
    public static ObjectInputFilter filter(int maxFrameBytes) {
        return RmiFilters.admittingProxies(ObjectInputFilter.Config.createFilter(pattern(maxFrameBytes)));
    }
}
