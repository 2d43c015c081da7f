package org.salgate.agent.cli;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What is wrong with the agent's options, its configuration file or its start, each said on its own. */
final class StartupProblems {

    private StartupProblems() {}

    /** One sentence per rule the numeric options break; empty when they are fine. */
    static List<String> ofOptions(int port, int dummySensors, int maxFrameBytes) {
        List<String> problems = new ArrayList<>();
        if (port < 0 || port > 65535) {
            problems.add("--port must be 0..65535 (0 picks a free port), got " + port);
        }
        if (dummySensors < 0) {
            problems.add("--dummy-sensors must be 0 or more, got " + dummySensors);
        }
        if (maxFrameBytes <= 0) {
            problems.add("--max-frame-bytes must be 1 or more, got " + maxFrameBytes);
        }
        return problems;
    }

    /** Why the agent cannot listen on {@code host}, or null when this machine has that address. */
    static String ofHost(String host) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return "--host " + host + " is not an address or a name this machine can resolve";
        }
        if (address.isAnyLocalAddress() || address.isLoopbackAddress()) {
            return null;
        }
        try {
            if (NetworkInterface.getByInetAddress(address) != null) {
                return null;
            }
        } catch (SocketException e) {
            return null; // cannot tell: let the bind say
        }
        return "--host " + host + " is not an address of this machine; give one of its addresses,"
                + " 127.0.0.1 for this machine only or 0.0.0.0 for every interface";
    }

    /** Why the configuration file could not be read. */
    static String ofConfigRead(Path config, IOException e) {
        String why = e instanceof NoSuchFileException ? "no such file"
                : e instanceof AccessDeniedException ? "permission denied"
                : java.nio.file.Files.isDirectory(config) ? "it is a directory"
                : String.valueOf(e.getMessage());
        return "cannot read the configuration " + config + ": " + why;
    }

    /**
     * The PCML problem said once: the parser's sentences begin "The PCML document ...", so that
     * subject becomes the file ("the configuration x.pcml is not well-formed XML ...").
     */
    static String ofConfigDocument(Path config, String parserMessage) {
        String m = String.valueOf(parserMessage);
        String prefix = "The PCML document ";
        if (m.startsWith(prefix)) {
            return "the configuration " + config + " " + m.substring(prefix.length());
        }
        return "the configuration " + config + " is not valid PCML: " + m;
    }

    /** Why the agent did not start, with the advice that fits the cause. */
    static String ofStart(String host, int port, Throwable e) {
        String where = host + ":" + port;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BindException bind) {
                String m = String.valueOf(bind.getMessage()).toLowerCase(Locale.ROOT);
                if (m.contains("in use")) {
                    return "the agent cannot listen on " + where + ": the port is in use; choose another --port"
                            + " or stop what uses it";
                }
                if (m.contains("assign") || m.contains("not available")) {
                    return "the agent cannot listen on " + where + ": " + host + " is not an address of this"
                            + " machine; give --host one of its addresses (127.0.0.1, 0.0.0.0 for all)";
                }
                if (m.contains("permission")) {
                    return "the agent cannot listen on " + where + ": ports below 1024 need privileges;"
                            + " choose a --port of 1024 or more";
                }
            }
        }
        return "the agent could not start on " + where + ": " + e.getMessage();
    }
}
