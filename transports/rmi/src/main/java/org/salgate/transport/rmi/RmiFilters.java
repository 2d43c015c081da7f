package org.salgate.transport.rmi;

import java.io.ObjectInputFilter;
import java.io.ObjectInputFilter.Status;
import java.lang.reflect.Proxy;
import java.rmi.Remote;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteObjectInvocationHandler;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.salgate.wire.Framing;

/**
 * The deserialization filters (JEP 290) of this transport. Each exported object is given its own
 * with its export: the protocol only carries byte arrays and strings to the agent, so everything
 * else is rejected before it is instantiated, and a byte array longer than
 * the frame limit is rejected before it is allocated, and reported so that its session can be
 * closed. A client reads the agent's stub under a filter of its own ({@link #agentStub}). Streams
 * without a filter of their own (what a client reads back from an agent, its answers and polled
 * frames included, RMI's distributed garbage collection) get the {@link #installProcessWide
 * process-wide} one, unless the process has one.
 */
final class RmiFilters {

    /** Deeper graphs or more references than a call's arguments need are refused outright. */
    private static final long MAX_DEPTH = 8;
    private static final long MAX_REFERENCES = 64;
    /** The process-wide filter's bounds: an exception with its causes and stack traces, a poll's batch. */
    private static final int PROCESS_MAX_DEPTH = 32;
    private static final long PROCESS_MAX_REFERENCES = 100_000;

    /** What RMI calls and the java codec carry, for the process-wide filter; everything else is rejected. */
    private static final List<String> PROCESS_ALLOWED = List.of(
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

    private RmiFilters() {}

    /** For {@link AgentRemote#open}, which takes no argument: every object is refused. */
    static ObjectInputFilter agent() {
        return info -> info.serialClass() == null ? Status.UNDECIDED : Status.REJECTED;
    }

    /**
     * For frames: byte arrays of at most {@code maxFrameBytes} and strings.
     *
     * @param tooLarge told why, when an array over the limit is refused, before the call is refused
     */
    static ObjectInputFilter frames(int maxFrameBytes, Consumer<Framing.FrameTooLargeException> tooLarge) {
        return info -> {
            Class<?> type = info.serialClass();
            if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES) {
                return Status.REJECTED;
            }
            if (type == byte[].class && info.arrayLength() > maxFrameBytes) {
                tooLarge.accept(new Framing.FrameTooLargeException(info.arrayLength(), maxFrameBytes));
                return Status.REJECTED;
            }
            return type == null || type == String.class || type == byte[].class ? Status.ALLOWED : Status.REJECTED;
        };
    }

    /**
     * For the agent's stub a client fetches: a proxy for {@link AgentRemote}, its invocation handler
     * and this transport's socket factory, in at most {@code maxBytes}; nothing else, arrays and
     * primitives included (which a pattern filter would leave undecided).
     */
    static ObjectInputFilter agentStub(int maxBytes) {
        Set<Class<?>> stub = Set.of(Remote.class, AgentRemote.class, Proxy.class, RemoteObjectInvocationHandler.class,
                RemoteObject.class, RmiClientSocketFactory.class);
        return info -> {
            Class<?> type = info.serialClass();
            if (info.depth() > MAX_DEPTH || info.references() > MAX_REFERENCES || info.streamBytes() > maxBytes) {
                return Status.REJECTED;
            }
            return type == null ? Status.UNDECIDED
                    : stub.contains(type) || Proxy.isProxyClass(type) ? Status.ALLOWED : Status.REJECTED;
        };
    }

    /**
     * The process-wide filter for frames of at most {@code maxFrameBytes}: depth, references, arrays
     * and stream size bounded. It admits the dynamic proxy classes of RMI stubs, which no pattern can
     * name: the JDK checks each interface of a proxy class against the filter before the class
     * itself, so a proxy is read only when all its interfaces are allowed.
     */
    static ObjectInputFilter processWide(int maxFrameBytes) {
        long maxStreamBytes = 8L * maxFrameBytes + (1 << 20); // a poll's batch of frames and its framing
        ObjectInputFilter patterns = ObjectInputFilter.Config.createFilter("maxdepth=" + PROCESS_MAX_DEPTH
                + ";maxrefs=" + PROCESS_MAX_REFERENCES + ";maxarray=" + maxFrameBytes + ";maxbytes=" + maxStreamBytes
                + ";" + String.join(";", PROCESS_ALLOWED) + ";!*");
        return info -> info.serialClass() != null && Proxy.isProxyClass(info.serialClass()) ? Status.ALLOWED
                : patterns.checkInput(info);
    }

    /**
     * Sets the {@link #processWide} filter, unless one is set already (by {@code -Djdk.serialFilter}
     * or an earlier call), which is then kept.
     */
    static synchronized void installProcessWide(int maxFrameBytes) {
        if (ObjectInputFilter.Config.getSerialFilter() == null) {
            ObjectInputFilter.Config.setSerialFilter(processWide(maxFrameBytes));
        }
    }
}
