package org.salgate.bench.run;

/** What is measured: the transport alone (paper section V) or the real agent on it (section VI). */
public enum Level {
    TRANSPORT, AGENT
}
