package org.salgate.bench.devices;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of the agent's threads in the bench's JVM, where the agent runs in-process beside the
 * clients (and the j2mod devices): the threads are told apart by the names agent-core and the
 * netty transport give them. Threads that start during a window count from zero; a thread that
 * ends inside one loses its time (the agent's are long-lived).
 */
final class ThreadCpu {

    /** Name prefixes of the agent's threads: transport server, workers, streams, device lanes, session limits. */
    static final List<String> AGENT_THREADS = List.of("salgate-netty-accept", "salgate-netty-io", "sal-worker-",
            "sal-stream-", "device-", "salgate-session-limits");

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU so far, in nanoseconds, of each live agent thread by id. */
    static Map<Long, Long> agentThreads() {
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (t != null && isAgent(t.getThreadName())) {
                long ns = THREADS.getThreadCpuTime(t.getThreadId());
                if (ns >= 0) {
                    cpu.put(t.getThreadId(), ns);
                }
            }
        }
        return cpu;
    }

    /** The agent threads' CPU between two snapshots, in nanoseconds. */
    static long between(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (var e : after.entrySet()) {
            sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }

    /** The whole bench JVM's CPU so far, in nanoseconds, or -1 when the JVM does not say. */
    static long process() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    static boolean supported() {
        return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
    }

    private static boolean isAgent(String name) {
        for (String p : AGENT_THREADS) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    private ThreadCpu() {}
}
