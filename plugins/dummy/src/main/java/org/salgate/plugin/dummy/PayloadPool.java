package org.salgate.plugin.dummy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Payload arrays filled with a fixed pattern ({@code byte i = (byte) i}), allocated once per size
 * and shared by every reading of that size, so a stream of large payloads does not allocate per
 * reading. The arrays are shared: nobody may write to them.
 *
 * <p>Bounded: the default size is kept for good; other sizes are kept, least recently used
 * first out, up to {@link #BUDGET_BYTES}; a size that does not fit is allocated per call.
 */
final class PayloadPool {

    /** 64 MiB: four of the largest payloads, or thousands of typical ones. */
    static final long BUDGET_BYTES = 64L * 1024 * 1024;

    private final byte[] defaultPayload;
    private final Map<Integer, byte[]> cache = new LinkedHashMap<>(16, 0.75f, true);
    private long cachedBytes;

    PayloadPool(int defaultSize) {
        this.defaultPayload = pattern(defaultSize);
    }

    /** The size used when a reading does not ask for one. */
    int defaultSize() {
        return defaultPayload.length;
    }

    /** A shared, patterned array of exactly {@code size} bytes; callers must not modify it. */
    byte[] payload(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("a payload size cannot be negative: " + size);
        }
        if (size == defaultPayload.length) {
            return defaultPayload;
        }
        synchronized (cache) {
            byte[] hit = cache.get(size);
            if (hit != null) {
                return hit;
            }
        }
        byte[] fresh = pattern(size);
        if (size > BUDGET_BYTES) {
            return fresh;
        }
        synchronized (cache) {
            byte[] raced = cache.get(size);
            if (raced != null) {
                return raced;
            }
            var oldest = cache.entrySet().iterator();
            while (cachedBytes + size > BUDGET_BYTES && oldest.hasNext()) {
                cachedBytes -= oldest.next().getValue().length;
                oldest.remove();
            }
            cache.put(size, fresh);
            cachedBytes += size;
        }
        return fresh;
    }

    /** Bytes held by the size cache, excluding the default payload. */
    long cachedBytes() {
        synchronized (cache) {
            return cachedBytes;
        }
    }

    static byte[] pattern(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }
}
