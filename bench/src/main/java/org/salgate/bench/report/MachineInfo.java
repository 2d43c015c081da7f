package org.salgate.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The machine a run measured on: cores, memory, CPU model, JVM and OS. */
public record MachineInfo(int cores, long memoryBytes, String cpu, String jvm, String os) {

    /** Client and server share one machine, which the report must say. */
    public static final String SHARED_MACHINE = "Clients (the bench JVM) and the server under test (a child JVM) "
            + "ran on this same machine over loopback (127.0.0.1), sharing its cores.";

    public static MachineInfo current() {
        long mem = -1;
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            mem = os.getTotalMemorySize();
        }
        return new MachineInfo(Runtime.getRuntime().availableProcessors(), mem, cpuModel(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: leave it unknown
        }
        return "unknown";
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", cores);
        m.put("memoryBytes", memoryBytes);
        m.put("cpu", cpu);
        m.put("jvm", jvm);
        m.put("os", os);
        m.put("note", SHARED_MACHINE);
        return m;
    }

    public String describe() {
        return String.format(java.util.Locale.ROOT, "%d cores (%s), %.1f GB memory, %s, %s", cores, cpu,
                memoryBytes / 1e9, jvm, os);
    }
}
