package store

const mapPopulate = 0
