package org.salgate.transport.rmi;

import java.io.ObjectInputFilter;
import java.io.ObjectInputFilter.Status;
import java.lang.reflect.Proxy;
import java.util.function.LongConsumer;

/**
 * The deserialization filters (JEP 290) of the objects this transport exports, given to RMI with
 * each export. The protocol only ever carries byte arrays, strings and the stubs of its own
 * callback objects, so everything else is rejected before it is instantiated. A byte array longer
 * than the frame limit is rejected before it is allocated, and reported so that its session can
 * be closed.
 */
final class RmiFilters {

    /** Deeper graphs or more references than a callback stub needs are refused outright. */
    private static final long MAX_DEPTH = 8;
    private static final long MAX_REFERENCES = 64;

    private RmiFilters() {}

    /** For {@link AgentRemote#open}: a callback stub (a proxy of {@link CallbackRemote}) and nothing else. */
    static ObjectInputFilter agent() {
        return admittingProxies(ObjectInputFilter.Config.createFilter("maxdepth=" + MAX_DEPTH + ";maxrefs="
                + MAX_REFERENCES + ";java.lang.reflect.Proxy;"
                + "java.rmi.server.RemoteObjectInvocationHandler;java.rmi.server.RemoteObject;java.rmi.Remote;"
                + "java.lang.String;" + RmiClientSocketFactory.class.getName() + ";" + CallbackRemote.class.getName()
                + ";!*"));
    }

    /**
     * For frames: byte arrays of at most {@code maxFrameBytes} and strings.
     *
     * @param oversize told the length of an array over the limit, before the call is refused
     */
    static ObjectInputFilter frames(int maxFrameBytes, LongConsumer oversize) {
        return carrying(maxFrameBytes, -1, MAX_REFERENCES, oversize); // no batches
    }

    /**
     * For pushes to a client: batches of at most {@code maxBatch} frames of at most
     * {@code maxFrameBytes} each, and strings.
     *
     * @param oversize told the length of a frame over the limit, before the push is refused
     */
    static ObjectInputFilter pushes(int maxFrameBytes, int maxBatch, LongConsumer oversize) {
        return carrying(maxFrameBytes, maxBatch, MAX_REFERENCES + 2L * maxBatch, oversize);
    }

    private static ObjectInputFilter carrying(int maxFrameBytes, int maxBatch, long maxReferences,
                                              LongConsumer oversize) {
        return info -> {
            Class<?> type = info.serialClass();
            if (info.depth() > MAX_DEPTH || info.references() > maxReferences) {
                return Status.REJECTED;
            }
            if (type == byte[].class && info.arrayLength() > maxFrameBytes) {
                oversize.accept(info.arrayLength());
                return Status.REJECTED;
            }
            boolean allowed = type == null || type == String.class || type == byte[].class
                    || (type == byte[][].class && info.arrayLength() <= maxBatch);
            return allowed ? Status.ALLOWED : Status.REJECTED;
        };
    }

    /**
     * {@code patterns}, and the dynamic proxy classes of RMI stubs, which no pattern can name: the
     * JDK checks each interface of a proxy class against the filter before the class itself, so a
     * proxy is read only when all its interfaces are allowed.
     */
    static ObjectInputFilter admittingProxies(ObjectInputFilter patterns) {
        return info -> info.serialClass() != null && Proxy.isProxyClass(info.serialClass()) ? Status.ALLOWED
                : patterns.checkInput(info);
    }
}
