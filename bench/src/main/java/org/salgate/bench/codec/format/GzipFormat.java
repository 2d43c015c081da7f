package org.salgate.bench.codec.format;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** Another format's bytes, gzip'd ({@code java.util.zip}, default level); named {@code <inner>+gzip}. */
public final class GzipFormat implements PayloadFormat {

    /** The most bytes a payload may inflate to: a bound against gzip bombs. */
    public static final int MAX_INFLATED_BYTES = 64 * 1024 * 1024;

    private final PayloadFormat inner;
    private final String name;

    /** Gzips what {@code inner} writes. */
    public GzipFormat(PayloadFormat inner) {
        this.inner = inner;
        this.name = inner.name() + "+gzip";
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] encode(Object value) throws IOException {
        byte[] plain = inner.encode(value);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(plain.length / 4 + 64);
        try (GZIPOutputStream out = new GZIPOutputStream(bytes, 8192)) {
            out.write(plain);
        }
        return bytes.toByteArray();
    }

    @Override
    public <T> T decode(byte[] bytes, Class<T> type) throws IOException {
        return inner.decode(inflate(bytes), type);
    }

    private byte[] inflate(byte[] bytes) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes), 8192)) {
            byte[] plain = in.readNBytes(MAX_INFLATED_BYTES);
            if (in.read() >= 0) {
                throw new IOException("not a valid " + name + " payload: it inflates to more than "
                        + MAX_INFLATED_BYTES + " bytes");
            }
            return plain;
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
