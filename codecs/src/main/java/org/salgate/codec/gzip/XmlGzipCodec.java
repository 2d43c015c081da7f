package org.salgate.codec.gzip;

/** Gzip around the xml codec: {@code xml+gzip}. */
public final class XmlGzipCodec extends GzipCodec {

    public XmlGzipCodec() {
        super(new org.salgate.codec.xml.XmlCodec());
    }
}
