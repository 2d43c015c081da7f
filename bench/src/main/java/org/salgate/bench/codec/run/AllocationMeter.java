package org.salgate.bench.codec.run;

import java.lang.management.ManagementFactory;

/** Bytes allocated so far by the current thread, where the JVM counts them (HotSpot does). */
final class AllocationMeter {

    private final com.sun.management.ThreadMXBean bean;

    private AllocationMeter(com.sun.management.ThreadMXBean bean) {
        this.bean = bean;
    }

    static AllocationMeter create() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean t
                && t.isThreadAllocatedMemorySupported()) {
            try {
                if (!t.isThreadAllocatedMemoryEnabled()) {
                    t.setThreadAllocatedMemoryEnabled(true);
                }
                return new AllocationMeter(t);
            } catch (UnsupportedOperationException | SecurityException e) {
                return new AllocationMeter(null);
            }
        }
        return new AllocationMeter(null);
    }

    boolean supported() {
        return bean != null;
    }

    /** Bytes this thread has allocated since it started, or -1 if unknown. */
    long current() {
        return bean == null ? -1 : bean.getCurrentThreadAllocatedBytes();
    }
}
