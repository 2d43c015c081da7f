/** Gzip around any codec. */
package org.salgate.codec.gzip;
