package org.salgate.transport.rmi;

import java.io.ObjectInputFilter;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process-wide deserialization filter ({@code jdk.serialFilter}, JEP 290) that the RMI
 * transport sets when its server starts or its client connects, unless the process has one. Every
 * object stream that has no filter of its own goes through it: what an RMI
 * client reads back from a registry, an agent or a relay (stubs, byte-array frames, exceptions),
 * and RMI's distributed garbage collection. It allows only those classes and the java codec's tree,
 * bounds depth and references, and bounds arrays and stream size to the frame limit, so a peer
 * that answers with a gadget class or a huge array declaration is refused before anything is
 * allocated. Streams with their own filter (the RMI transport's exported objects, the java codec)
 * keep theirs.
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
