package org.salgate.agent.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.util.Map;
import org.slf4j.LoggerFactory;

/** {@link Logging} done with Logback, loaded only when Logback is the slf4j binding. */
final class LogbackSetup {

    private LogbackSetup() {}

    static void configure(String level, Map<String, String> levels, String format) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        Encoder<ILoggingEvent> encoder;
        if (format.equalsIgnoreCase("json")) {
            encoder = new JsonEncoder();
        } else {
            PatternLayoutEncoder pattern = new PatternLayoutEncoder();
            pattern.setPattern(Logging.TEXT_PATTERN);
            encoder = pattern;
        }
        encoder.setContext(context);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("console");
        console.setTarget("System.err");
        console.setEncoder(encoder);
        console.start();
        context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(console);
        setLevels(level, levels);
    }

    static void setLevels(String level, Map<String, String> levels) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        for (ch.qos.logback.classic.Logger logger : context.getLoggerList()) {
            if (logger != root) {
                logger.setLevel(null);
            }
        }
        root.setLevel(Level.toLevel(level, Level.INFO));
        levels.forEach((name, l) -> context.getLogger(name).setLevel(Level.toLevel(l, Level.INFO)));
    }
}
