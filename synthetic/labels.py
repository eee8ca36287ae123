"""The Mapillary Vistas label ids (category_penalty.tsv) that the synthetic scenes use."""

from __future__ import annotations

CURB = 2
FENCE = 3
GUARD_RAIL = 4
BARRIER = 5
WALL = 6
BIKE_LANE = 7
CROSSWALK_PLAIN = 8
CURB_CUT = 9
PARKING = 10
PEDESTRIAN_AREA = 11
ROAD = 13
SIDEWALK = 15
BUILDING = 17
PERSON = 19
CROSSWALK_MARKING = 23
LANE_MARKING = 24
MOUNTAIN = 25
SAND = 26  # dirt and gravel paths: what a Vistas-trained segmenter calls them most often
SKY = 27
SNOW = 28
TERRAIN = 29
VEGETATION = 30
WATER = 31
BENCH = 33
BIKE_RACK = 34
MANHOLE = 41
STREET_LIGHT = 44
POLE = 45
UTILITY_POLE = 47
TRAFFIC_SIGN_FRONT = 50
TRASH_CAN = 51
BUS = 54
CAR = 55

MAX_LABEL = 64
