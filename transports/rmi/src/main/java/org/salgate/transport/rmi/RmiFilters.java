package org.salgate.transport.rmi;

import java.io.ObjectInputFilter;
import java.lang.reflect.Proxy;
import java.rmi.Remote;
import java.rmi.server.RemoteObject;
import java.rmi.server.RemoteObjectInvocationHandler;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * The deserialization filters (JEP 290) of the objects this transport exports. The protocol only
 * ever carries byte arrays, strings, primitives and the stubs of its own callback objects, so
 * everything else is rejected before it is instantiated. A byte array longer than the frame limit
 * is rejected before it is allocated, and reported so that its session can be closed.
 */
final class RmiFilters {

    /** Deeper graphs or more references than a callback stub needs are refused outright. */
    private static final long MAX_DEPTH = 8;
    private static final long MAX_REFERENCES = 64;

    /** What a callback stub is made of: a dynamic proxy and the RMI classes behind it. */
    private static final Set<Class<?>> STUB_CLASSES = Set.of(Proxy.class, RemoteObjectInvocationHandler.class,
            RemoteObject.class, RmiClientSocketFactory.class, CallbackRemote.class, Remote.class, String.class);

    private RmiFilters() {}

    /** For {@link AgentRemote#open}: a callback stub and nothing else. */
    static ObjectInputFilter agent() {
        return info -> {
            Class<?> type = info.serialClass();
            if (!withinLimits(info)) {
                return ObjectInputFilter.Status.REJECTED;
            }
            if (type == null) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            if (STUB_CLASSES.contains(type) || isCallbackProxy(type)) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            return ObjectInputFilter.Status.REJECTED;
        };
    }

    /**
     * For frames: byte arrays of at most {@code maxFrameBytes} and strings.
     *
     * @param oversize told the length of an array over the limit, before the call is refused
     */
    static ObjectInputFilter frames(int maxFrameBytes, LongConsumer oversize) {
        return info -> {
            Class<?> type = info.serialClass();
            if (!withinLimits(info)) {
                return ObjectInputFilter.Status.REJECTED;
            }
            if (type == null) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            if (type == byte[].class) {
                if (info.arrayLength() > maxFrameBytes) {
                    oversize.accept(info.arrayLength());
                    return ObjectInputFilter.Status.REJECTED;
                }
                return ObjectInputFilter.Status.ALLOWED;
            }
            return type == String.class ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
        };
    }

    /**
     * For pushes to a client: batches of at most {@code maxBatch} frames of at most
     * {@code maxFrameBytes} each, their sequence numbers, and strings.
     *
     * @param oversize told the length of a frame over the limit, before the push is refused
     */
    static ObjectInputFilter pushes(int maxFrameBytes, int maxBatch, LongConsumer oversize) {
        long maxReferences = MAX_REFERENCES + 2L * maxBatch; // every frame of a batch is an object
        return info -> {
            Class<?> type = info.serialClass();
            if (info.depth() > MAX_DEPTH || info.references() > maxReferences) {
                return ObjectInputFilter.Status.REJECTED;
            }
            if (type == null || type == String.class) {
                return ObjectInputFilter.Status.ALLOWED;
            }
            if (type == byte[][].class || type == long[].class) {
                return info.arrayLength() <= maxBatch ? ObjectInputFilter.Status.ALLOWED
                        : ObjectInputFilter.Status.REJECTED;
            }
            if (type == byte[].class) {
                if (info.arrayLength() > maxFrameBytes) {
                    oversize.accept(info.arrayLength());
                    return ObjectInputFilter.Status.REJECTED;
                }
                return ObjectInputFilter.Status.ALLOWED;
            }
            return ObjectInputFilter.Status.REJECTED;
        };
    }

    private static boolean withinLimits(ObjectInputFilter.FilterInfo info) {
        return info.depth() <= MAX_DEPTH && info.references() <= MAX_REFERENCES;
    }

    private static boolean isCallbackProxy(Class<?> type) {
        if (!Proxy.isProxyClass(type)) {
            return false;
        }
        for (Class<?> face : type.getInterfaces()) {
            if (face != CallbackRemote.class && face != Remote.class) {
                return false;
            }
        }
        return true;
    }
}
