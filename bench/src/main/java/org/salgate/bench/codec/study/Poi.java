package org.salgate.bench.codec.study;

import java.io.Serializable;
import java.util.Objects;

/**
 * A point of interest as the mobile study transferred them: thirteen text fields, about 600 bytes
 * of data in all, most of it in the description.
 */
public record Poi(String id, String name, String category, String description, String street, String city,
        String postalCode, String country, String latitude, String longitude, String phone, String website,
        String openingHours) implements Serializable {

    public Poi {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(street, "street");
        Objects.requireNonNull(city, "city");
        Objects.requireNonNull(postalCode, "postalCode");
        Objects.requireNonNull(country, "country");
        Objects.requireNonNull(latitude, "latitude");
        Objects.requireNonNull(longitude, "longitude");
        Objects.requireNonNull(phone, "phone");
        Objects.requireNonNull(website, "website");
        Objects.requireNonNull(openingHours, "openingHours");
    }

    /** The characters of all thirteen fields, the study's "about 600 bytes of data". */
    public int dataChars() {
        return id.length() + name.length() + category.length() + description.length() + street.length()
                + city.length() + postalCode.length() + country.length() + latitude.length() + longitude.length()
                + phone.length() + website.length() + openingHours.length();
    }
}
