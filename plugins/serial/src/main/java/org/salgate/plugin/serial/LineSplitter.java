package org.salgate.plugin.serial;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Cuts the bytes a port delivers into lines ended by {@code \n} (a {@code \r} before it is
 * dropped), each at most {@code maxLine} bytes: the bytes of a longer line are dropped up to its
 * end and the line counts as overlong. Lines are decoded as UTF-8 (ASCII for NMEA), a malformed
 * byte becoming U+FFFD. Holds at most {@code maxLine} bytes. Not thread-safe.
 */
final class LineSplitter {

    private final int maxLine;
    private final ByteArrayOutputStream line;
    private boolean overlong;

    /** @param maxLine the longest line kept, in bytes, without its end; at least 1 */
    LineSplitter(int maxLine) {
        if (maxLine < 1) {
            throw new IllegalArgumentException("a line is at least 1 byte long");
        }
        this.maxLine = maxLine;
        this.line = new ByteArrayOutputStream(Math.min(maxLine, 256));
    }

    /**
     * Takes {@code length} bytes from {@code bytes}, handing every whole line to {@code lines} and
     * telling {@code overlong} of each line dropped for its length (once, at its end).
     */
    void feed(byte[] bytes, int length, Consumer<String> lines, Runnable overlongLines) {
        for (int i = 0; i < length; i++) {
            byte b = bytes[i];
            if (b == '\n') {
                if (overlong) {
                    overlong = false;
                    overlongLines.run();
                } else {
                    byte[] l = line.toByteArray();
                    int end = l.length > 0 && l[l.length - 1] == '\r' ? l.length - 1 : l.length;
                    lines.accept(new String(l, 0, end, StandardCharsets.UTF_8));
                }
                line.reset();
            } else if (!overlong) {
                // one byte more than maxLine is kept room for a '\r' before the end
                if (line.size() > maxLine || (line.size() == maxLine && b != '\r')) {
                    overlong = true;
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        }
    }

    /** How many bytes of an unfinished line it holds. */
    int buffered() {
        return line.size();
    }
}
